#!/bin/sh
# t2000-dump-matrix.sh with the ext4 variants: the same checks, the other half of the
# image kinds (a script of its own so that both halves run at once).
KINDS=${KINDS:-ext4-1k ext4-inline ext4-csum64}
. "$(dirname "$0")/t2000-dump-matrix.sh"
