#!/bin/bash
# newlib-sys trusts its install by content, never by presence (issue 51,
# item 7): a libc.a cut short, a library missing, or a build that failed
# half way is rebuilt from the tarball by the next build, which then
# succeeds; an install left alone is not rebuilt, and cargo does not even
# run the build script again.
#
# The crate is built for the host from a stand-in for newlib's source
# tarball, whose configure and make do in a moment what newlib's do for the
# crate (install headers, libc.a and libm.a under <prefix>/mips-elf) and
# count the builds. The real newlib goes through the same script in every
# ROM build. Needs the MIPS cross tools (their versions are in the build's
# key). Run by `make -C n64 test` (target newlib-check).
set -euo pipefail

crate=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The stand-in source: configure writes a Makefile for --prefix.
src=$work/newlib-9.9.9
mkdir -p "$src"
cat > "$src/configure" <<'CONFIGURE'
#!/bin/sh
for arg; do case $arg in --prefix=*) prefix=${arg#--prefix=} ;; esac; done
printf '%s\n' \
  'all-target-newlib:' \
  '	test -z "$(FAKE_NEWLIB_FAIL)"' \
  '	echo build >> "$(FAKE_NEWLIB_COUNT)"' \
  '	printf "!<arch>\n" > libc.a; seq 1 2000 >> libc.a' \
  '	printf "!<arch>\n" > libm.a; seq 1 500 >> libm.a' \
  'install-target-newlib:' \
  "	mkdir -p $prefix/mips-elf/lib $prefix/mips-elf/include" \
  "	cp libc.a libm.a $prefix/mips-elf/lib/" \
  "	echo '/* stdio */' > $prefix/mips-elf/include/stdio.h" > Makefile
CONFIGURE
chmod +x "$src/configure"
tar -C "$work" -cJf "$work/newlib-9.9.9.tar.xz" newlib-9.9.9
(printf '!<arch>\n'; seq 1 2000) > "$work/libc.a.want"

export NEWLIB_TARBALL=$work/newlib-9.9.9.tar.xz
export FAKE_NEWLIB_COUNT=$work/builds
target=$work/target
failures=0

# Builds the crate; its output in $work/out.log, its status in $status.
build() {
  status=0
  cargo build -v --manifest-path "$crate/Cargo.toml" --target-dir "$target" \
    > "$work/out.log" 2>&1 || status=$?
}
check() {
  if eval "$2"; then
    echo "ok: $1"
  else
    echo "FAIL: $1 ($2)"; sed 's/^/  | /' "$work/out.log"; failures=$((failures + 1))
  fi
}
builds() { wc -l < "$FAKE_NEWLIB_COUNT" 2>/dev/null || echo 0; }

build
check "a first build installs newlib" '[ $status = 0 ] && [ $(builds) = 1 ]'
lib=$(echo "$target"/debug/build/newlib-sys-*/out/install/mips-elf/lib)
check "libc.a is what newlib's make built" 'cmp -s "$lib/libc.a" "$work/libc.a.want"'

build
check "an install left alone is kept, the script not run again" \
  '[ $status = 0 ] && [ $(builds) = 1 ] && grep -q "Fresh newlib-sys" "$work/out.log"'

head -c 100 "$work/libc.a.want" > "$lib/libc.a"
build
check "a libc.a cut short is rebuilt" \
  '[ $status = 0 ] && [ $(builds) = 2 ] && cmp -s "$lib/libc.a" "$work/libc.a.want"'
check "the rebuild says why" \
  'grep -q "newlib rebuilt from the tarball: mips-elf/lib/libc.a had changed since it was installed" "$work/out.log"'

rm "$lib/libm.a"
build
check "a missing libm.a is rebuilt" '[ $status = 0 ] && [ $(builds) = 3 ] && [ -s "$lib/libm.a" ]'

# A build that fails half way: one error line, no panic; the next build
# starts again and succeeds.
head -c 100 "$work/libc.a.want" > "$lib/libc.a"
FAKE_NEWLIB_FAIL=1 build
check "a failed build is an error" '[ $status != 0 ] && [ $(builds) = 3 ]'
check "its message is one line, without a panic" \
  '[ $(grep -c "^error: newlib-sys@0.1.0: make all-target-newlib failed" "$work/out.log") = 1 ] && ! grep -qi "panicked\|backtrace" "$work/out.log"'
build
check "the build after a failed one succeeds" \
  '[ $status = 0 ] && [ $(builds) = 4 ] && cmp -s "$lib/libc.a" "$work/libc.a.want"'

# No newlib source: one clear error.
NEWLIB_TARBALL=$work/none.tar.xz build
check "a missing tarball is one clear error" \
  'grep -q "^error: newlib-sys@0.1.0: cannot read $work/none.tar.xz" "$work/out.log"'

if [ $failures != 0 ]; then
  echo "newlib-sys rebuild: $failures check(s) failed" >&2
  exit 1
fi
echo "newlib-sys rebuild: all checks passed"
