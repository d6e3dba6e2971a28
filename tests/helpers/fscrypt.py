#!/usr/bin/env python3
"""fscrypt.py - make a directory encrypted (fscrypt policy v2) for tests.

  fscrypt.py encrypt MOUNTPOINT DIR     add a fixed test key to the file
                                        system, set a v2 policy on the
                                        empty DIR (its new entries are
                                        encrypted from now on)
  fscrypt.py dirents FILE               FILE: a directory's raw blocks
                                        (debugfs "cat <INO>"); print
                                        "INO HEXNAME" for each live entry
                                        but "." and ".."

Needs root and an ext4 with the "encrypt" feature.  Only the kernel's
ioctls are used (FS_IOC_ADD_ENCRYPTION_KEY, FS_IOC_SET_ENCRYPTION_POLICY),
so no fscrypt tool or keyring is needed; unmounting the file system
forgets the key.
"""
import fcntl
import os
import struct
import sys


def _iowr(nr, size):
    return (3 << 30) | (size << 16) | (ord('f') << 8) | nr


def _ior(nr, size):
    return (2 << 30) | (size << 16) | (ord('f') << 8) | nr


KEY = bytes(range(64))                  # a fixed 512-bit test key
SPEC_IDENTIFIER = 2                     # FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER
MODE_AES_256_XTS = 1
MODE_AES_256_CTS = 4
PAD_16 = 2                              # names padded to 16 bytes

# struct fscrypt_key_specifier: type, reserved, 32-byte union
SPEC = struct.Struct('<II32s')
ADD_KEY = struct.Struct('<%dsII32s' % SPEC.size)         # + raw key
POLICY_V2 = struct.Struct('<BBBB4s16s')

FS_IOC_SET_ENCRYPTION_POLICY = _ior(19, 12)
FS_IOC_ADD_ENCRYPTION_KEY = _iowr(23, ADD_KEY.size)


def add_key(mnt):
    arg = bytearray(ADD_KEY.pack(SPEC.pack(SPEC_IDENTIFIER, 0, b''),
                                 len(KEY), 0, b'') + KEY)
    fd = os.open(mnt, os.O_RDONLY)
    try:
        fcntl.ioctl(fd, FS_IOC_ADD_ENCRYPTION_KEY, arg)
    finally:
        os.close(fd)
    return bytes(arg[8:24])             # the key identifier


def encrypt(mnt, path):
    ident = add_key(mnt)
    policy = bytearray(POLICY_V2.pack(2, MODE_AES_256_XTS, MODE_AES_256_CTS,
                                      PAD_16, b'', ident))
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.ioctl(fd, FS_IOC_SET_ENCRYPTION_POLICY, policy)
    finally:
        os.close(fd)


def dirents(path):
    """Entries of an ext4 directory without checksum tails (htree nodes
    read as entries of inode 0, which are skipped)."""
    data = open(path, 'rb').read()
    off = 0
    while off + 8 <= len(data):
        ino, reclen, namlen = struct.unpack_from('<IHB', data, off)
        if reclen < 8 or reclen % 4:
            raise ValueError('bad entry at offset %d' % off)
        name = data[off + 8:off + 8 + namlen]
        if ino and name not in (b'.', b'..'):
            print('%d %s' % (ino, name.hex()))
        off += reclen


def main(argv):
    if len(argv) == 4 and argv[1] == 'encrypt':
        encrypt(argv[2], argv[3])
    elif len(argv) == 3 and argv[1] == 'dirents':
        dirents(argv[2])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
