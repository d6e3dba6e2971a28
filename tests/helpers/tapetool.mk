# tests/helpers/tapetool.mk - builds helpers/tapetool, the archive
# inspector/byte-swapper/damager used by the t1 and t9 tests.
#   helpers/tapetool.c  list, swap and edit dump archives (compressed:
#                       list and swap, with zlib/bzip2)
# Included by tests/Makefile (after its default target), or run alone from
# tests/:  make -C tests -f helpers/tapetool.mk
ifeq ($(origin LIBCOMMON),undefined)
TAPETOOL_STANDALONE = 1
srcdir       ?= .
top_srcdir   ?= ..
top_builddir ?= ..
include $(top_builddir)/Make.rules
.DEFAULT_GOAL := tapetool
$(LIBCOMMON):
	$(MAKE) -C $(top_builddir)/common
endif

TAPETOOL = helpers/tapetool

tapetool: $(TAPETOOL)

# tapetool inflates and deflates payloads with zlib itself (-lz), even
# where the programs use libdeflate for -z.
$(TAPETOOL): helpers/tapetool.c $(LIBCOMMON) $(COMMON_HEADERS)
	@test -d helpers || mkdir -p helpers
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< \
	    $(LIBCOMMON) -lz $(BZLIB_LIBS) $(LIBS)

clean-tapetool:
	rm -f $(TAPETOOL)

.PHONY: tapetool clean-tapetool
