#!/bin/bash
# The build (GNUmakefile): a second make compiles nothing; a changed CFLAGS
# recompiles every object and a changed LDFLAGS relinks only; CPPFLAGS and
# LDFLAGS from the environment reach the compiler and the linker (a
# distribution's -D_FORTIFY_SOURCE and hardening); install and uninstall.
# In a copy of the tree built once at -O0 (about 20 s on 2 cores); the
# other checks are make -n, which the flags stamps keep truthful.

. "$(dirname "$0")/lib.sh"

for cmd in git make pkg-config readelf; do
	command -v "$cmd" >/dev/null 2>&1 ||
		test_skip_all "no $cmd (scripts/install-deps installs what the build needs)"
done
git -C "$SRC_DIR" rev-parse --git-dir >/dev/null 2>&1 ||
	test_skip_all "$SRC_DIR is not a git work tree: the copy is made from git ls-files"

# the make that runs this one (make test) passes its variables down in
# MAKEFLAGS; the builds here set their own, from a clean environment
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEFILES CC CFLAGS CPPFLAGS LDFLAGS \
	DEVELOPER SANITIZE MPI V O

FLAGS='-O0 -g0'
# m ARGS...: make in the copy with the test's CFLAGS
m () {
	make -C src --no-print-directory CFLAGS="$FLAGS" "$@"
}
# compiles FILE: the object files FILE shows compiled (quiet or V=1 lines)
compiles () {
	sed -n -e 's/^ *CC \([^ ]*\.o\)$/\1/p' \
		-e 's/.* -c -o \([^ ]*\.o\) .*/\1/p' "$1" | sort -u
}

test_expect_success 'a copy of the tree, built once' '
	mkdir src &&
	(cd "$SRC_DIR" &&
	 git ls-files -z --cached --others --exclude-standard |
	 tar --null -T - --ignore-failed-read -cf - 2>/dev/null) |
		tar -C src -xf - &&
	test_path_is_file src/GNUmakefile &&
	m -j2 clyde >build1.out 2>&1 &&
	test -x src/clyde &&
	compiles build1.out >objects &&
	grep -qx clyde.o objects &&
	grep -qx templates/templates.o objects &&
	test "$(wc -l <objects)" -gt 50
'

test_expect_success 'a second make compiles and links nothing' '
	m clyde >build2.out 2>&1 &&
	test_must_fail grep -E "^ *(CC|AR|LINK|GEN) " build2.out &&
	m -q clyde
'

test_expect_success 'make -n: the same CFLAGS compile nothing, a new one every object' '
	m -n V=1 clyde >dry.out &&
	test_must_fail grep -E " -c | -o " dry.out &&
	make -C src -n CFLAGS="$FLAGS -DT9006_CFLAG" clyde >cflags.out &&
	compiles cflags.out >cflags.objects &&
	test_cmp objects cflags.objects &&
	grep -q "LINK clyde" cflags.out &&
	test_must_fail m -q clyde CFLAGS=-O1
'

test_expect_success 'CPPFLAGS from the environment reaches every compile (V=1)' '
	CPPFLAGS="-D_FORTIFY_SOURCE=2 -DT9006_CPPFLAG" m -n V=1 clyde \
		>cppflags.out &&
	compiles cppflags.out >cppflags.objects &&
	test_cmp objects cppflags.objects &&
	test "$(grep -c -- " -c -o " cppflags.out)" = \
	     "$(grep -- " -c -o " cppflags.out |
		grep -c -- "-D_FORTIFY_SOURCE=2 -DT9006_CPPFLAG ")"
'

test_expect_success 'a changed LDFLAGS from the environment relinks only' '
	LDFLAGS=-Wl,-z,now m V=1 clyde >ldflags.out 2>&1 &&
	test_must_fail grep -- " -c -o " ldflags.out &&
	grep -- " -o clyde " ldflags.out | grep -q -- "-Wl,-z,now" &&
	readelf -d src/clyde | grep -E "BIND_NOW|FLAGS.* NOW" &&
	LDFLAGS=-Wl,-z,now m -q clyde
'

test_expect_success 'touching the template generator remakes templates.c only' '
	touch src/templates/generate.sh &&
	m -n clyde >gen.out &&
	grep -q "GEN templates/templates.c" gen.out &&
	compiles gen.out >gen.objects &&
	echo templates/templates.o >gen.expect &&
	test_cmp gen.expect gen.objects
'

# file-local means static: a function or object a file exports is linked
# by another object, or named by another .c file (bench/mpi.c, built only
# with MPI=1; a test in t/)
test_expect_success 'every symbol a file exports is used outside that file' '
	(cd src && find lib fsops bench report templates -name "*.o" &&
	 echo clyde.o) >objs &&
	(cd src && xargs nm -u <../objs) | awk "NF == 2 { print \$2 }" |
		sort -u >linked &&
	while read -r o; do
		nm -g --defined-only "src/$o" |
			awk -v o="$o" "\$2 ~ /^[TDRB]\$/ { print o, \$3 }"
	done <objs >defined &&
	test "$(wc -l <defined)" -gt 500 &&
	while read -r o sym; do
		grep -qx "$sym" linked ||
		(cd src && grep -rlw --include=*.c "$sym" . |
			grep -vqx "./${o%.o}.c") ||
		echo "$o: $sym"
	done <defined >local &&
	test_must_fail test -s local
'

test_expect_success 'install and uninstall under DESTDIR and PREFIX' '
	m install DESTDIR="$TRASH/dest" PREFIX=/opt/c >install.out 2>&1 &&
	test -x dest/opt/c/bin/clyde &&
	test_path_is_file dest/opt/c/share/man/man1/clyde.1 &&
	m uninstall DESTDIR="$TRASH/dest" PREFIX=/opt/c &&
	test_path_is_missing dest/opt/c/bin/clyde &&
	test_path_is_missing dest/opt/c/share/man/man1/clyde.1
'

test_done
