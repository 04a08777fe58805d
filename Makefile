# Thin wrapper over CMake: `make bench` and `make check` are the two commands the
# README promises.  Everything real lives in CMakeLists.txt.

BUILD    ?= build
CMAKE    ?= cmake
CTEST    ?= ctest
JOBS     ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX   ?= /usr/local
BENCH_ARGS ?=
CMAKE_ARGS ?=

.PHONY: all build check bench install clean

all: build

$(BUILD)/CMakeCache.txt:
	$(CMAKE) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS)

build: $(BUILD)/CMakeCache.txt
	$(CMAKE) --build $(BUILD) -j $(JOBS)

# The whole test suite: native tests, the sanitizer build, the install test.
# Ends with "N passed, N failed, N skipped", after the reason for each skip.
check: build
	cd $(BUILD) && $(CTEST) --output-on-failure -j $(JOBS) $(CTEST_ARGS) 2>&1 | tee ctest-output.txt
	scripts/check-summary.sh $(BUILD)/ctest-output.txt $(BUILD)/Testing/Temporary/LastTest.log

# About a minute: every variant, a byte loop and libc, sizes 8 B..64 MiB.
bench: build
	$(BUILD)/tools/altmem bench $(BENCH_ARGS)

install: build
	$(CMAKE) --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD)
