# SPDX-License-Identifier: Apache-2.0
# The two commands a user needs: `make demo` and `make test`. Both install missing Debian packages
# first (tools/bootstrap.sh).
JOBS ?= $(shell nproc)
PREFIX ?= /usr/local
BUILD ?= build/release
TEST_BUILD ?= build/test
CMAKE_FLAGS ?=

.PHONY: all bootstrap build install demo test test-asan test-tsan fuzz bench clean

all: build

bootstrap:
	@tools/bootstrap.sh

build: bootstrap
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DEPOXY_BUILD_TESTS=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS) --target epoxy

# The binary in PREFIX/bin, the Python packages and the engine module in PREFIX/lib/epoxy/python.
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

demo: build
	EPOXY=$(BUILD)/epoxy tools/demo.sh

test: bootstrap
	cmake -S . -B $(TEST_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEPOXY_BUILD_TESTS=ON $(CMAKE_FLAGS)
	cmake --build $(TEST_BUILD) -j $(JOBS)
	cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_COMPILER=clang++-16 -DEPOXY_BUILD_FUZZERS=ON
	cmake --build build/fuzz -j $(JOBS)
	cd $(TEST_BUILD) && ctest --output-on-failure -j $(JOBS)
	tools/run_fuzzers.sh build/fuzz 10

test-asan: bootstrap
	cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DEPOXY_SANITIZE=ON -DEPOXY_BUILD_TESTS=ON
	cmake --build build/asan -j $(JOBS)
	cd build/asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

test-tsan: bootstrap
	cmake -S . -B build/tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEPOXY_TSAN=ON -DEPOXY_BUILD_TESTS=ON
	cmake --build build/tsan -j $(JOBS)
	cd build/tsan && TSAN_OPTIONS=halt_on_error=1 ctest --output-on-failure -j $(JOBS)

fuzz: bootstrap
	cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_COMPILER=clang++-16 -DEPOXY_BUILD_FUZZERS=ON
	cmake --build build/fuzz -j $(JOBS)
	tools/run_fuzzers.sh build/fuzz $${FUZZ_SECONDS:-300}

bench: bootstrap
	cmake -S . -B build/bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DEPOXY_BUILD_TESTS=OFF \
	  -DEPOXY_BUILD_BENCHMARKS=ON
	cmake --build build/bench -j $(JOBS)
	build/bench/src/epoxy/format/epoxy_format_benchmark
	build/bench/src/epoxy/expr/epoxy_expr_benchmark

clean:
	rm -rf build
