# tests/fuzz/fuzz.mk - the fuzz targets (see tests/README, "Fuzzing"),
# included by tests/Makefile.
#   harness.c        exit()/err() back to the target; the input in a memfd
#   replay.c         main() without libFuzzer: every file of a corpus once
#   archive.c        small archives built around an input
#   restore_input.c  restore's options and input for one run (restore -t -f -)
#   restore_walk.c   restore -t's reading of a whole archive
#   shim_*.c         restore's tape.c, media.c, dirs.c, symtab.c with a reset each
#   dump_stubs.c     dump's output pipeline, dropped (fuzz_fs)
#   fuzz_header.c    raw archive bytes
#   fuzz_dirs.c      directory images (pass III)
#   fuzz_ea.c        EA record payloads
#   fuzz_zrecord.c   compressed records (-z/-j/-y)
#   fuzz_fs.c        file-system images for dump's reader
#
# `make check` builds fuzz/replay-TARGET with the normal compiler and
# flags (sanitizers when configured), linked with the objects of the
# programs; t9100-fuzz-corpus.sh runs them over the corpus.  `make fuzz`
# builds fuzz/lf/fuzz_TARGET with clang and libFuzzer and runs each for
# FUZZ_SECONDS (new inputs go to fuzz/runs/TARGET, crashes to
# fuzz/artifacts/).
FUZZ_TARGETS = header dirs ea zrecord fs
FUZZ_SECONDS = 30
FUZZ_CC      = clang
FUZZ_SAN     = -fsanitize=address,undefined -fno-sanitize-recover=all
# The build's warnings, without -Werror (clang warns differently) and
# without the configured sanitizer flags (FUZZ_SAN replaces them).
FUZZ_CFLAGS  = -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN) \
	$(filter-out -Werror -fsanitize=% -fno-sanitize-recover=% \
	  -fno-omit-frame-pointer,$(DUMP_CFLAGS))
FUZZ_WRAP    = -Wl,--wrap=exit

FZ = fuzz
FZSRC = $(srcdir)/fuzz
FZ_RINC = -I$(top_srcdir)/restore -I$(FZSRC)
FZ_DINC = -I$(top_srcdir)/dump -I$(FZSRC)

# Which harness files and which objects of the programs each links.
FZ_RESTORE_HARNESS = harness archive restore_input restore_walk \
	shim_tape shim_media shim_dirs shim_symtab
FZ_FS_HARNESS = harness dump_stubs
FZ_RESTORE_SKIP = main tape media dirs symtab
FZ_RESTORE_MODS = $(filter-out $(FZ_RESTORE_SKIP), \
	$(basename $(notdir $(wildcard $(top_srcdir)/restore/*.c))))
FZ_DUMP_MODS = traverse changes inode dirconv dirwalk ea optr sig subset \
	ask notify ident
FZ_RESTORE_LIBS = $(ZLIB_LIBS) $(DEFLATE_LIBS) $(BZLIB_LIBS) $(LZO_LIBS) \
	$(ZSTD_LIBS) $(READLINE_LIBS)
# Every object of common/ goes into the libFuzzer builds, decompress.c's
# codecs with it.
FZ_DUMP_LIBS = $(EXT2FS_LIBS) $(BLKID_LIBS) $(FZ_RESTORE_LIBS)

# ---- replay build (normal compiler, the programs' own objects) ----
FZ_REPLAY = $(FUZZ_TARGETS:%=$(FZ)/replay-%)
FZ_RESTORE_OBJS = $(FZ_RESTORE_MODS:%=$(top_builddir)/restore/%.o)
FZ_DUMP_OBJS = $(FZ_DUMP_MODS:%=$(top_builddir)/dump/%.o)

fuzz-replay: $(FZ_REPLAY)

$(FZ)/r-%.o: $(FZSRC)/%.c $(COMMON_HEADERS) $(wildcard $(FZSRC)/*.h \
		$(top_srcdir)/restore/*.h $(top_srcdir)/restore/*.c \
		$(top_srcdir)/dump/*.h)
	@test -d $(FZ) || mkdir -p $(FZ)
	$(CC) $(ALL_CPPFLAGS) $(FZ_RINC) $(FZ_DINC) $(ALL_CFLAGS) -c -o $@ $<

FZ_R_RESTORE = $(FZ_RESTORE_HARNESS:%=$(FZ)/r-%.o) $(FZ)/r-replay.o
FZ_R_FS = $(FZ_FS_HARNESS:%=$(FZ)/r-%.o) $(FZ)/r-replay.o

$(FZ)/replay-fs: $(FZ)/r-fuzz_fs.o $(FZ_R_FS) $(FZ_DUMP_OBJS) $(LIBCOMMON) \
		$(LIBCOMPAT)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(FUZZ_WRAP) -o $@ $^ \
	    $(FZ_DUMP_LIBS) $(LIBS)

$(FZ)/replay-%: $(FZ)/r-fuzz_%.o $(FZ_R_RESTORE) $(FZ_RESTORE_OBJS) \
		$(LIBCOMMON) $(LIBCOMPAT)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(FUZZ_WRAP) -o $@ $^ \
	    $(FZ_RESTORE_LIBS) $(LIBS)

# ---- libFuzzer build (clang, every source compiled here) ----
FZL = $(FZ)/lf
FZ_LF_BINS = $(FUZZ_TARGETS:%=$(FZL)/fuzz_%)
FZ_LF_COMMON = $(patsubst %,$(FZL)/common-%.o, \
	$(basename $(notdir $(wildcard $(top_srcdir)/common/*.c)))) \
	$(patsubst %,$(FZL)/compat-%.o, \
	$(basename $(notdir $(wildcard $(top_srcdir)/compat/*.c))))
FZ_LF_RESTORE = $(FZ_RESTORE_MODS:%=$(FZL)/restore-%.o) \
	$(FZ_RESTORE_HARNESS:%=$(FZL)/h-%.o) $(FZ_LF_COMMON)
FZ_LF_FS = $(FZ_DUMP_MODS:%=$(FZL)/dump-%.o) \
	$(FZ_FS_HARNESS:%=$(FZL)/h-%.o) $(FZ_LF_COMMON)
FZ_LF_HDRS = $(COMMON_HEADERS) $(wildcard $(top_srcdir)/restore/*.h \
	$(top_srcdir)/dump/*.h)

$(FZL)/common-%.o: $(top_srcdir)/common/%.c $(FZ_LF_HDRS)
	@test -d $(FZL) || mkdir -p $(FZL)
	$(FUZZ_CC) $(ALL_CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link \
	    -c -o $@ $<
$(FZL)/compat-%.o: $(top_srcdir)/compat/%.c $(FZ_LF_HDRS)
	@test -d $(FZL) || mkdir -p $(FZL)
	$(FUZZ_CC) $(ALL_CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link \
	    -c -o $@ $<
$(FZL)/restore-%.o: $(top_srcdir)/restore/%.c $(FZ_LF_HDRS)
	@test -d $(FZL) || mkdir -p $(FZL)
	$(FUZZ_CC) $(ALL_CPPFLAGS) $(FZ_RINC) $(FUZZ_CFLAGS) \
	    -fsanitize=fuzzer-no-link -c -o $@ $<
$(FZL)/dump-%.o: $(top_srcdir)/dump/%.c $(FZ_LF_HDRS)
	@test -d $(FZL) || mkdir -p $(FZL)
	$(FUZZ_CC) $(ALL_CPPFLAGS) $(FZ_DINC) $(FUZZ_CFLAGS) \
	    -fsanitize=fuzzer-no-link -c -o $@ $<
$(FZL)/h-%.o: $(FZSRC)/%.c $(FZ_LF_HDRS) $(wildcard $(FZSRC)/*.h \
		$(top_srcdir)/restore/*.c)
	@test -d $(FZL) || mkdir -p $(FZL)
	$(FUZZ_CC) $(ALL_CPPFLAGS) $(FZ_RINC) $(FZ_DINC) $(FUZZ_CFLAGS) \
	    -fsanitize=fuzzer-no-link -c -o $@ $<

$(FZL)/fuzz_fs: $(FZL)/h-fuzz_fs.o $(FZ_LF_FS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(FUZZ_WRAP) -o $@ $^ \
	    $(FZ_DUMP_LIBS) $(LIBS)
$(FZL)/fuzz_%: $(FZL)/h-fuzz_%.o $(FZ_LF_RESTORE)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(FUZZ_WRAP) -o $@ $^ \
	    $(FZ_RESTORE_LIBS) $(LIBS)

fuzz-build: $(FZ_LF_BINS)

# Objects of a pattern chain are kept (make would delete them).
.SECONDARY: $(FZ_LF_RESTORE) $(FZ_LF_FS) $(FUZZ_TARGETS:%=$(FZL)/h-fuzz_%.o) \
	$(FZ_R_RESTORE) $(FZ_R_FS) $(FUZZ_TARGETS:%=$(FZ)/r-fuzz_%.o)

# Each target for FUZZ_SECONDS from its corpus and regression inputs;
# fails when any target found a crash, a leak or a hang (-timeout).
# fuzz_fs runs without leak checks: dump_abort() exits with pass I's
# buffers held, as the real program does, and the harness comes back.
# The seeds of ea, dirs and zrecord are small; -max_len lets inputs grow
# to an EA block and to directories and records of several blocks
# (at once: -len_control=0).
fuzz: $(FZ_LF_BINS)
	@mkdir -p $(FZ)/artifacts; rc=0; \
	for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FZ)/runs/$$t; \
	  echo "=== fuzz_$$t: $(FUZZ_SECONDS) s"; \
	  seeds=$(FZSRC)/corpus/$$t; \
	  test -d $(FZSRC)/regress/$$t && seeds="$$seeds $(FZSRC)/regress/$$t"; \
	  leaks= asan=$${ASAN_OPTIONS-}; \
	  case $$t in ea) max=-max_len=8200;; dirs|zrecord) max=-max_len=32768;; \
	    *) max=;; esac; \
	  max="$$max $${max:+-len_control=0}"; \
	  test $$t = fs && leaks=-detect_leaks=0 \
	    asan=$${asan:+$$asan:}detect_leaks=0; \
	  ASAN_OPTIONS=$$asan $(FZL)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
	    -rss_limit_mb=2048 -close_fd_mask=3 -print_final_stats=1 \
	    -artifact_prefix=$(FZ)/artifacts/$$t- $$leaks $$max $(FUZZ_ARGS) \
	    $(FZ)/runs/$$t $$seeds >$(FZ)/runs/$$t.log 2>&1 || \
	    { rc=1; echo "fuzz_$$t FAILED:"; tail -n 60 $(FZ)/runs/$$t.log; }; \
	  grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::average_exec_per_sec)' \
	    $(FZ)/runs/$$t.log || true; \
	done; exit $$rc

clean-fuzz:
	rm -rf $(FZ)/*.o $(FZ_REPLAY) $(FZL) $(FZ)/runs $(FZ)/artifacts

.PHONY: fuzz fuzz-build fuzz-replay clean-fuzz
