# Thin wrapper over CMake: `make bench` and `make check` are the two commands the
# README promises.  Everything real lives in CMakeLists.txt.

BUILD    ?= build
CMAKE    ?= cmake
CTEST    ?= ctest
JOBS     ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX   ?= /usr/local
BENCH_ARGS ?=
CMAKE_ARGS ?=

.PHONY: all build check bench install clean check-cross fuzz abi-update deb

all: build

$(BUILD)/CMakeCache.txt:
	$(CMAKE) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS)

build: $(BUILD)/CMakeCache.txt
	$(CMAKE) --build $(BUILD) -j $(JOBS)

# The whole test suite: native tests, the sanitizer build, the install test, and the
# other architectures and musl (cross.*, each its own build; see below).
# Ends with "N passed, N failed, N skipped", after the reason for each skip.
check: build
	cd $(BUILD) && $(CTEST) --output-on-failure -j $(JOBS) $(CTEST_ARGS) 2>&1 | tee ctest-output.txt
	scripts/check-summary.sh $(BUILD)/ctest-output.txt $(BUILD)/Testing/Temporary/LastTest.log

# The flake hunt (docs/flakes.md): the fault, thread, signal, compare and fuzz
# self-test tests N times in the plain and the sanitizer build; per test, how many
# runs failed.  REPEAT_ARGS="-R REGEX --builds plain" narrows it.
N ?= 20
REPEAT_ARGS ?=
.PHONY: check-repeat
check-repeat:
	JOBS=$(JOBS) scripts/check-repeat.sh -n $(N) $(REPEAT_ARGS) . $(BUILD)

# One other architecture (or C library) by hand, in build-<target>: its whole suite,
# under qemu-user for the cross targets (docs/arch-notes.md).  `make check` runs the
# same as the tests cross.<target>, in $(BUILD)/cross-<target>.
CROSS_TARGETS := aarch64 aarch64-static riscv64 riscv64-static loongarch64 musl
.PHONY: $(addprefix check-,$(CROSS_TARGETS))
$(addprefix check-,$(CROSS_TARGETS)): check-%:
	scripts/cross-check.sh $* . build-$*
check-cross: $(addprefix check-,$(CROSS_TARGETS))

# About 90 s: the bound variants against the C library, 0 B..64 MiB, in 5 fresh
# processes with a control in every cell (docs/performance.md, "Method").
# With a profile that applies here (altmem tune --write), also what it buys: the
# bound variants by the rules and by the profile, side by side (--profile, --quick).
bench: build
	$(BUILD)/tools/altmem bench $(BENCH_ARGS)
	@prof=$$($(BUILD)/tools/altmem info 2>/dev/null | sed -n 's/^profile: *\(.*\): applied.*/\1/p'); \
	if [ -n "$$prof" ]; then $(BUILD)/tools/altmem bench --profile "$$prof" --quick; \
	else echo "(no profile applies here: altmem tune --write measures one; make bench then compares it)"; fi

# Differential fuzzing (docs/fuzzing.md): every libFuzzer target for FUZZ_SECONDS
# each, in build-fuzz (clang-19, ASan+UBSan); FUZZ_ARGS="--target fuzz_mem --jobs 2".
FUZZ_SECONDS ?= 300
FUZZ_ARGS ?=
fuzz:
	scripts/fuzz.sh --time $(FUZZ_SECONDS) $(FUZZ_ARGS) build-fuzz

# Rewrite the ABI baseline abi/ from $(BUILD) after a deliberate change (docs/abi.md);
# review it with `git diff abi/` and commit it with the change.
abi-update: build
	$(CMAKE) --build $(BUILD) --target abi-update

# Debian packages (docs/packaging.md): libaltmem0, libaltmem-dev and altmem, built in
# $(DEB_BUILD) (a build of its own: prefix /usr, /etc/altmem/profile), written to
# $(DEB_BUILD)/packages/.  Then: sudo apt install ./$(DEB_BUILD)/packages/*.deb
DEB_BUILD ?= build-deb
deb:
	JOBS=$(JOBS) scripts/make-deb.sh . $(DEB_BUILD)

install: build
	$(CMAKE) --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD)
