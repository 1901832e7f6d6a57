# Tic-Tac-Toe 64: the two commands a new user needs are `make play` and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := play

# Debian packages the tests need: the MIPS toolchain for the ROM (Debian's
# rustc-web ships the library source that -Zbuild-std wants; the MIPS GCC and
# newlib's source build libdragon and newlib), mupen64plus for the emulator
# end-to-end tests, tmux for the terminal UI tests, GNU parallel for the
# proof-in-parts examples of `ttt solve --help` and `ttt join --help` (run by
# tests/documented_commands.rs). libclang-dev is no longer among them:
# libdragon's bindings are checked in (n64/libdragon-sys/src/bindings.rs);
# only `make -C n64 bindings` / `bindings-check`, which run bindgen, need it.
APT_PACKAGES := rustc-web cargo-web rust-web-src binutils-mips-linux-gnu \
	gcc-mips-linux-gnu newlib-source \
	libmupen64plus2 libmupen64plus-dev mupen64plus-rsp-hle tmux parallel

.PHONY: play test deps fmt-check clippy test-host no-std rom rom-hw play-rom test-rom bench \
	bench-solve test-steps refit-eval test-clippy test-build test-install test-run test-core-check test-elf \
	test-e2e tactics-suite solve-time bench-solve-885 prove-885

play:
	cargo run --release -p ttt-cli --bin ttt --

# `make test`: deps and the format check, then the same checks as the
# targets below (clippy, test-host, no-std, test-rom) in two streams at once
# (the machine has two cores and each stream alone leaves one idle for long
# stretches: newlib's configure, the ROM's link, a long test):
#   host: clippy, then the test build (with the tools the emulator tests
#         run), then the host tests;
#   rom:  core-check, then the ROM's ELF;
# and the emulator tests (e2e) once the ROM and the tools are built, beside
# the host tests. Each line of output starts with its step's name. Between
# the build and the tests, the README's install command, with the test
# profile (it reuses the test build; --offline: that build fetched every
# crate) into target/install-check, and both programs it installs run.
test: deps fmt-check
	@$(MAKE) --no-print-directory -j2 test-steps

test-steps: test-run test-e2e

# A step's command, its output lines prefixed with the step's name (pipefail
# keeps the command's exit status). The command runs without make's job
# slots (MAKEFLAGS emptied): cargo would take the slot one stream frees and
# keep it, starving the other stream; each cargo uses the cores as usual.
step = set -o pipefail; echo "[$(1)] $(2)"; MAKEFLAGS= $(2) 2>&1 | sed -u 's/^/[$(1)] /'
# n64's make for the steps: a plain command to this make (not $(MAKE) in the
# recipe, which `make -n` would run).
N64_MAKE := $(MAKE) --no-print-directory -C n64

deps:
	@missing=$$(for p in $(APT_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -z "$$missing" ]; then exit 0; fi; \
	echo "make deps: installing Debian packages:" $$missing; \
	if [ "$$(id -u)" = 0 ]; then SUDO=; \
	elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO=sudo; \
	else echo "make deps: missing Debian packages: $$missing" >&2; \
	     echo "make deps: run as root or install them with: sudo apt-get install $$missing" >&2; exit 1; fi; \
	$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing

fmt-check:
	cargo fmt --all --check

clippy:
	cargo clippy --workspace --all-targets -- -D warnings

# The tests build with the `ci` profile (Cargo.toml: optimised, no LTO);
# `make test TEST_PROFILE=release` tests exactly what ships.
TEST_PROFILE ?= ci
test-host:
	cargo test --profile $(TEST_PROFILE) --workspace

# Prove ttt-core is no_std without an allocator: build it alone for the N64's
# MIPS target with only `core` available.
no-std:
	$(MAKE) -C n64 core-check

rom:
	$(MAKE) -C n64 rom

# ROMs for a console or flashcart: with libdragon's signed compat IPL3 (from
# the libdragon source the ROM is built on), or IPL3=FILE (n64/README.md,
# "ROM for a console").
rom-hw:
	@$(MAKE) --no-print-directory -C n64 rom-hw $(if $(IPL3),IPL3=$(abspath $(IPL3)))

# The ROM in Debian's mupen64plus front end (README, "The console"): its
# package installed as `make deps` installs the tests' (Debian 12 has no
# package named mupen64plus); Glide64mk2 because Rice, the default video
# plugin, shows black (it displays what the RDP renders, and the game draws
# with the CPU); --noosd keeps the emulator's messages off the picture.
EMULATOR_PACKAGES := mupen64plus-ui-console mupen64plus-video-glide64mk2
play-rom: rom
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(EMULATOR_PACKAGES)"
	/usr/games/mupen64plus --noosd --gfx mupen64plus-video-glide64mk2 target/tictactoe.z64

test-rom:
	$(MAKE) -C n64 test HOST_PROFILE=$(TEST_PROFILE)

# The steps of `make test` (above), ordered by their prerequisites. Clippy
# runs with the test profile so that its build scripts and proc-macros are
# the test build's. The test build is `cargo test`'s (--lib --bins --tests
# --examples select its targets and its feature set) plus the plugins'
# libraries, so `cargo test` then only runs, and e2e runs the tools as built
# (HOST_TOOLS_BUILT: no cargo, whose lock the host tests hold meanwhile).
test-clippy:
	@$(call step,clippy,cargo clippy --profile $(TEST_PROFILE) --workspace --all-targets -- -D warnings)

test-build: test-clippy
	@$(call step,build,cargo build --profile $(TEST_PROFILE) --workspace --lib --bins --tests --examples)

INSTALL_CHECK_ROOT := target/install-check
test-install: test-build
	@$(call step,install,cargo install --locked --path crates/ttt-cli --profile $(TEST_PROFILE) \
		--root $(INSTALL_CHECK_ROOT) --force --offline)
	@$(call step,install,$(INSTALL_CHECK_ROOT)/bin/ttt --version)
	@$(call step,install,echo ABOUT | $(INSTALL_CHECK_ROOT)/bin/pbrain-ttt)

test-run: test-install
	@$(call step,test,cargo test --profile $(TEST_PROFILE) --workspace)

test-core-check:
	@$(call step,no-std,$(N64_MAKE) core-check)

test-elf: test-core-check
	@$(call step,rom,$(N64_MAKE) elf)

test-e2e: test-elf test-build
	@$(call step,e2e,$(N64_MAKE) test HOST_PROFILE=$(TEST_PROFILE) HOST_TOOLS_BUILT=1)

bench:
	cargo run --release -p ttt-cli --bin ttt -- bench

# The tactics suite of `ttt bench` (crates/ttt-core/src/ai/tactics.txt):
# 15x15 games between the built-in players, with node budgets and seeds
# (no clock), so the same games every time; then `ttt tactics generate`
# keeps, per game, kind and side to move, the first position where the
# game's move was wrong (else the hardest one), and works out every answer
# with the threat searches. About 10 minutes on the 2-core machine.
TACTICS_DIR ?= target/tactics
TACTICS_GAMES := \
	strong-strong:strong:strong:20000:2-4:101 \
	strong-strong-5k:strong:strong:5000:8-10:102 \
	strong-hard:strong:hard:20000:2-4:103 \
	strong-medium:strong:medium:20000:6:104 \
	hard-medium:hard:medium:20000:8-10:105 \
	medium-medium:medium:medium:20000:2-4:106
tactics-suite:
	cargo build --release -p ttt-cli --bin ttt
	@mkdir -p $(TACTICS_DIR)
	@set -e; for g in $(TACTICS_GAMES); do \
		IFS=: read -r name x o nodes stones seed <<< "$$g"; \
		echo "== $$name: $$x against $$o, $$nodes nodes, openings of $$stones stones, seed $$seed"; \
		target/release/ttt arena -x $$x -o $$o --size 15 --openings $$stones --games 30 \
			--max-nodes $$nodes --seed $$seed --record $(TACTICS_DIR)/$$name.txt > /dev/null; \
	done
	target/release/ttt tactics generate $(foreach g,$(TACTICS_GAMES),$(TACTICS_DIR)/$(firstword $(subst :, ,$(g))).txt) \
		> $(TACTICS_DIR)/tactics.txt
	mv $(TACTICS_DIR)/tactics.txt crates/ttt-core/src/ai/tactics.txt

# The exact solver's proofs (issue 12): each board solved from the empty board
# with a certificate, the certificate checked by `ttt verify`; time, nodes,
# peak memory (GNU time's maximum resident set) and certificate size printed.
# `time` is the wall time of `ttt solve`, with its parts (table, proof,
# certificate); the table is allocated zeroed, so its untouched pages cost
# nothing. The distance of a win is not sought above 25 cells (that is
# `ttt solve --distance`). A board not solved within SOLVE_LIMIT seconds is
# reported as such, with how far it came (8x8 k=5 is not solved yet:
# docs/solver.md).
# A board is SIZE:K or SIZE:K:MIB (its table, else SOLVE_TT_MB): a table far
# larger than the proof costs time, each page the search first touches being
# a page fault (7x7 k=5 with 2 GiB: 1.5 s of system time, 2 s of proof).
# The proof runs on every core unless SOLVE_THREADS says otherwise.
SOLVE_BOARDS ?= 5x5:4 6x5:4 6x6:5 7x6:5 7x7:5:64 8x8:5:8192
SOLVE_TT_MB ?= 256
SOLVE_THREADS ?=
SOLVE_LIMIT ?= 600
PROOF_DIR ?= target/proofs
bench-solve:
	@test -x /usr/bin/time || { echo "make bench-solve: needs GNU time: apt-get install time" >&2; exit 1; }
	cargo build --release -p ttt-cli --bin ttt
	@mkdir -p $(PROOF_DIR)
	@$(MAKE) --no-print-directory solve-time
	@for b in $(SOLVE_BOARDS); do \
		IFS=: read -r size k mib <<< "$$b"; mib=$${mib:-$(SOLVE_TT_MB)}; \
		cert=$(PROOF_DIR)/$$size-k$$k.cert; \
		echo "== $$size k=$$k ($$mib MiB table)"; \
		if timeout -s INT $(SOLVE_LIMIT) /usr/bin/time -f "peak memory %M KiB, %e s wall, %U s user, %S s system" \
			target/release/ttt solve --size $$size -k $$k --tt-mb $$mib \
			$(if $(SOLVE_THREADS),--threads $(SOLVE_THREADS)) --certificate $$cert; then \
			echo "certificate $$cert: $$(wc -l < $$cert) lines, $$(wc -c < $$cert) bytes"; \
			/usr/bin/time -f "verify: peak memory %M KiB, %e s wall" \
				target/release/ttt verify $$cert || exit 1; \
		else echo "$$size k=$$k: not solved within $(SOLVE_LIMIT) s (the longest runs, and how far they came: docs/solver.md)"; fi; \
	done

# 8x8 k=5 (issue 52), proved in parts (`ttt solve --resume`; docs/solver.md). `make bench-solve-885`: one part (PART885, a first
# move of X up to symmetry: `ttt solve --size 8x8 -k 5 --list-parts --json`)
# searched for BENCH885_NODES nodes on one thread, with its census (what
# settles the positions) and heaviest subtrees, the same work every run;
# then the figures of the last full proof, from docs/proof-885.txt.
# `make prove-885`: the full proof, a part on each core at once, each part kept in
# $(PROOF_DIR)/885.parts as it is settled (stop it with Ctrl-C and run it
# again: it goes on), then the certificate joined, checked by `ttt verify`,
# and docs/proof-885.txt written (every sitting's wall time added; `time
# -q`, or a stopped sitting's line would hold time's "Command exited with
# non-zero status" and its figures on a line of their own, which the sum
# misreads).
PART885 ?= 1
BENCH885_NODES ?= 20000000
PROOF885_TT_MB ?= 8192
bench-solve-885:
	@test -x /usr/bin/time || { echo "make bench-solve-885: needs GNU time: apt-get install time" >&2; exit 1; }
	cargo build --release -p ttt-cli --bin ttt
	@mkdir -p $(PROOF_DIR)
	@echo "== 8x8 k=5, part $(PART885), $(BENCH885_NODES) nodes on one thread"
	@/usr/bin/time -f "peak memory %M KiB, %e s wall, %U s user" \
		target/release/ttt solve --size 8x8 -k 5 --threads 1 --tt-mb 2048 --part $(PART885) \
		--max-nodes $(BENCH885_NODES) --census 2 --certificate $(PROOF_DIR)/885-$(PART885).part; \
		test $$? -le 2
	@echo "== the last full proof of 8x8 k=5 (docs/proof-885.txt)"
	@cat docs/proof-885.txt

prove-885:
	@test -x /usr/bin/time || { echo "make prove-885: needs GNU time: apt-get install time" >&2; exit 1; }
	cargo build --release -p ttt-cli --bin ttt
	@mkdir -p $(PROOF_DIR)
	@cmd="target/release/ttt solve --size 8x8 -k 5 --tt-mb $(PROOF885_TT_MB) --resume $(PROOF_DIR)/885.parts --certificate $(PROOF_DIR)/885.cert"; \
	echo "$$cmd"; \
	/usr/bin/time -q -o $(PROOF_DIR)/885.sitting -f "%e %M" $$cmd; rc=$$?; \
	echo "$$(date -u +%FT%TZ) $$(cat $(PROOF_DIR)/885.sitting) $$rc" >> $(PROOF_DIR)/885.sittings; \
	test $$rc = 0 || { echo "make prove-885: stopped (sittings so far: $(PROOF_DIR)/885.sittings); run it again to go on"; exit $$rc; }; \
	/usr/bin/time -o $(PROOF_DIR)/885.verify -f "%e %M" target/release/ttt verify $(PROOF_DIR)/885.cert || exit 1; \
	awk -v cmd="$$cmd" -v commit="$$(git rev-parse --short HEAD 2>/dev/null)" \
		-v bytes="$$(wc -c < $(PROOF_DIR)/885.cert)" -v verify="$$(cat $(PROOF_DIR)/885.verify)" \
		'{ wall += $$2; if ($$3 > peak) peak = $$3; n++; last = $$1 } \
		END { split(verify, v, " "); \
			printf "8x8 k=5: draw, proved and certified by make prove-885\n"; \
			printf "date %s, commit %s\ncommand %s\n", last, commit, cmd; \
			printf "wall time %.0f s (%.2f h) in %d sitting(s), peak memory %d KiB\n", wall, wall / 3600, n, peak; \
			printf "certificate %s bytes, verified in %.0f s, verify peak memory %d KiB\n", bytes, v[1], v[2] }' \
		$(PROOF_DIR)/885.sittings > docs/proof-885.txt; \
	cat docs/proof-885.txt

# Does the time `ttt solve` prints match the time a user waits? 6x5 k=4 run
# 21 times, each timed by the shell around the command (bash's
# EPOCHREALTIME), the medians compared. Each run writes a new file: one that
# truncates a file already on disk costs ext4 a writeback when the file is
# closed at exit, 2-3 ms after the program has ended (as much for
# /bin/echo), which no program can count.
solve-time:
	@test -x target/release/ttt || cargo build --release -p ttt-cli --bin ttt
	@mkdir -p $(PROOF_DIR)
	@f=$(PROOF_DIR)/time.json; t=$(PROOF_DIR)/time.txt; : > $$t; \
	for i in $$(seq 21); do rm -f $$f; t0=$$EPOCHREALTIME; \
		target/release/ttt solve --size 6x5 -k 4 --json > $$f || exit 1; t1=$$EPOCHREALTIME; \
		echo "$$t0 $$t1 $$(sed -n 's/^  "seconds": \([0-9.]*\),$$/\1/p' $$f)" >> $$t; \
	done; \
	w=$$(awk '{print ($$2 - $$1) * 1000}' $$t | sort -g | sed -n 11p); \
	p=$$(awk '{print $$3 * 1000}' $$t | sort -g | sed -n 11p); \
	awk -v w=$$w -v p=$$p 'BEGIN { printf "== solve'"'"'s printed time: 6x5 k=4 prints %.1f ms against %.1f ms of wall time (medians of 21 runs), %.1f%% less\n", p, w, (w - p) / w * 100 }'

# The pattern board's evaluation (crates/ttt-core/src/ai/strong/shape/
# weights/eval.rs) fitted again to a stronger engine's verdicts: games
# between the peer engines and against pbrain-ttt (each record is made
# once: delete it to play it again) and those of $(PEERS)/games, their
# quiet positions labelled by Rapfi at LABEL_MS a position (kept in
# verdicts.tsv; a run goes on where the last one stopped), the weights fitted (fit_eval, held-out error on
# stderr) and written over the source file. Needs the peer engines
# (PEERS, see ../shared/tools/peers/README.md); hours of work, never part
# of make test. docs/engine.md says how the current weights were made.
PEERS ?= ../shared/tools/peers
REFIT_DIR ?= target/refit
LABEL_MS ?= 100
REFIT_GAMES := rapfi-rapfi rapfi-rapfi-long carbon-rapfi ttt-rapfi
REFIT_RECORDS := $(REFIT_GAMES:%=$(REFIT_DIR)/%.rec)
refit-eval: $(REFIT_RECORDS)
	cargo build --release -p ttt-cli --example label_positions
	cargo build --release -p ttt-core --example fit_eval
	touch $(REFIT_DIR)/verdicts.tsv
	target/release/examples/label_positions --engine $(PEERS)/pbrain-rapfi --time $(LABEL_MS) \
		--every 2 --skip $(REFIT_DIR)/verdicts.tsv $(REFIT_RECORDS) $(wildcard $(PEERS)/games/*.txt) \
		>> $(REFIT_DIR)/verdicts.tsv
	target/release/examples/fit_eval $(REFIT_DIR)/verdicts.tsv \
		--init crates/ttt-core/src/ai/strong/shape/weights/eval.rs > $(REFIT_DIR)/eval.rs
	mv $(REFIT_DIR)/eval.rs crates/ttt-core/src/ai/strong/shape/weights/eval.rs
$(REFIT_DIR)/%.rec: | $(REFIT_DIR)/.ttt
	target/release/ttt arena --size 15 --record $@.part $(REFIT_ARENA_$*) > /dev/null
	mv $@.part $@
$(REFIT_DIR)/.ttt:
	cargo build --release -p ttt-cli --bin ttt --bin pbrain-ttt
	mkdir -p $(REFIT_DIR) && touch $@
REFIT_ARENA_rapfi-rapfi = --engine-x $(PEERS)/pbrain-rapfi --engine-o $(PEERS)/pbrain-rapfi \
	--openings 3-6 --seed 101 --games 200 --time 100
REFIT_ARENA_rapfi-rapfi-long = --engine-x $(PEERS)/pbrain-rapfi --engine-o $(PEERS)/pbrain-rapfi \
	--openings 4-8 --seed 201 --games 200 --time 200
REFIT_ARENA_carbon-rapfi = --engine-x $(PEERS)/pbrain-carbon --engine-o $(PEERS)/pbrain-rapfi \
	--openings 2-5 --seed 102 --games 100 --time 100
REFIT_ARENA_ttt-rapfi = --engine-x target/release/pbrain-ttt --engine-o $(PEERS)/pbrain-rapfi \
	--openings 3-6 --seed 103 --games 100 --time 150
