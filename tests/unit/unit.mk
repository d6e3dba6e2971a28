# tests/unit/unit.mk - the unit tier (`make check-unit`; tests/README):
# small C programs, run as any user, each linked with the objects of one
# area, plus stand-ins for what those objects call outside the area.
#   unit.c        the harness: TAP lines, forks, a temporary directory
#   run.sh        runs the programs and prints one "N passed, N failed" line
#   t-spcl.c      header checksum, classification, byte swapping (common/)
#   t-compress.c  record codecs both ways and the compressed-record prefix
#   t-itime.c     dumpdates dates, reading, the base (also under another
#                 name of the file system), -u rewriting (dump/itime.c)
#   t-options.c   dump's command line, key letters included (dump/options.c)
#   t-dirs.c      restore's directory records, name checks, path handling,
#                 the words of a line typed at restore -i
#   t-rmt.c       rmt server (rmt/) and client (common/) over a socketpair
# Included by tests/Makefile after its default target.
UNIT_PROGS = unit/t-spcl unit/t-compress unit/t-itime unit/t-options \
	unit/t-dirs unit/t-rmt

UNIT_CPPFLAGS = -I$(srcdir)/unit -I$(top_srcdir)/dump \
	-I$(top_srcdir)/restore -I$(top_srcdir)/rmt
UNIT_LIBS = $(LIBCOMMON) $(LIBCOMPAT) $(LIBS)
UNIT_D = $(top_builddir)/dump
UNIT_R = $(top_builddir)/restore
UNIT_M = $(top_builddir)/rmt

unit-progs: $(UNIT_PROGS)

check-unit: $(UNIT_PROGS)
	@sh $(srcdir)/unit/run.sh $(UNIT_PROGS)

# The programs include the headers of the areas they test, so a change
# there rebuilds them (else a stale object tests an old layout).
UNIT_HEADERS = $(wildcard $(top_srcdir)/dump/*.h $(top_srcdir)/restore/*.h \
	$(top_srcdir)/rmt/*.h)

unit/%.o: unit/%.c $(srcdir)/unit/unit.h $(COMMON_HEADERS) $(UNIT_HEADERS)
	@test -d unit || mkdir unit
	$(CC) $(ALL_CPPFLAGS) $(UNIT_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

# The objects under test come from their own directory's build (the top
# Makefile builds them first; this only fills in a missing one).
$(UNIT_D)/%.o:
	$(MAKE) -C $(@D) $(@F)
$(UNIT_R)/%.o:
	$(MAKE) -C $(@D) $(@F)
$(UNIT_M)/%.o:
	$(MAKE) -C $(@D) $(@F)
$(LIBCOMMON) $(LIBCOMPAT):
	$(MAKE) -C $(@D)

unit/t-spcl: unit/t-spcl.o unit/unit.o $(LIBCOMMON)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(UNIT_LIBS)

unit/t-compress: unit/t-compress.o unit/unit.o $(UNIT_D)/compress.o \
		$(LIBCOMMON)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(UNIT_LIBS) \
	    $(ZLIB_LIBS) $(DEFLATE_LIBS) $(BZLIB_LIBS) $(LZO_LIBS) $(ZSTD_LIBS)

unit/t-itime: unit/t-itime.o unit/unit.o unit/dumpstubs.o $(UNIT_D)/itime.o \
		$(UNIT_D)/optr.o $(LIBCOMMON)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(UNIT_LIBS) \
	    $(EXT2FS_LIBS)

unit/t-options: unit/t-options.o unit/unit.o unit/dumpstubs.o \
		$(UNIT_D)/options.o $(UNIT_D)/itime.o $(UNIT_D)/optr.o $(LIBCOMMON)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(UNIT_LIBS) \
	    $(EXT2FS_LIBS)

unit/t-dirs: unit/t-dirs.o unit/unit.o $(UNIT_R)/dirs.o $(UNIT_R)/symtab.o \
		$(UNIT_R)/symfile.o $(UNIT_R)/ishwords.o $(UNIT_R)/report.o \
		$(LIBCOMMON)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(UNIT_LIBS)

unit/t-rmt: unit/t-rmt.o unit/unit.o $(UNIT_M)/rmt.o $(UNIT_M)/rmtio.o \
		$(UNIT_M)/rmtops.o $(LIBCOMMON)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(UNIT_LIBS)

clean-unit:
	rm -f unit/*.o $(UNIT_PROGS)
	rm -rf trash.t0010-unit

.PHONY: unit-progs check-unit clean-unit
