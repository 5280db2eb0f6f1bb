#!/bin/bash
# scripts/install-deps: a no-op when everything is installed, apt-get for
# exactly what is missing otherwise, a clear error when it cannot be root.

. "$(dirname "$0")/lib.sh"

DEPS=$SRC_DIR/scripts/install-deps

# Stand-ins, each directory put first on PATH where a test needs it:
# fake/apt-get and fake/sudo record their calls in $TRASH/calls;
# dpkg/dpkg-query reports every package installed except those in
# $FAKE_MISSING (all when it is "*"); root/id says uid 0, nonroot/id
# uid 1000; nosudo/
# has only what the script needs, without sudo.
test_expect_success 'set up fake apt-get, sudo, dpkg-query, id' '
	mkdir fake dpkg root nonroot nosudo &&
	cat >fake/apt-get <<-\EOF &&
	#!/bin/bash
	echo "apt-get $*" >>"$TRASH/calls"
	exit "${FAKE_APT_STATUS:-0}"
	EOF
	cat >fake/sudo <<-\EOF &&
	#!/bin/bash
	echo "sudo $*" >>"$TRASH/calls"
	exec "$@"
	EOF
	cat >dpkg/dpkg-query <<-\EOF &&
	#!/bin/bash
	for a; do
		case $a in -*) continue ;; esac
		[ "$FAKE_MISSING" = "*" ] && continue
		case " $FAKE_MISSING " in *" $a "*) continue ;; esac
		echo "$a install ok installed"
	done
	EOF
	cat >nonroot/id <<-\EOF &&
	#!/bin/bash
	echo 1000
	EOF
	cat >root/id <<-\EOF &&
	#!/bin/bash
	echo 0
	EOF
	chmod +x fake/* dpkg/* root/* nonroot/* &&
	ln -s "$TRASH/fake/apt-get" "$TRASH/dpkg/dpkg-query" \
		"$TRASH/nonroot/id" "$(command -v env)" nosudo/ &&
	: >calls
'

test_expect_success 'all installed (fake dpkg): exit 0, silent, no apt-get' '
	PATH=$TRASH/dpkg:$TRASH/fake:$PATH FAKE_MISSING= FAKE_APT_STATUS=1 \
		"$DEPS" >out 2>err &&
	test_line_count = 0 out &&
	test_line_count = 0 err &&
	test_line_count = 0 calls
'

missing=$("$DEPS" --dry-run 2>&1)
if [ $? -ne 0 ] || [ -n "$missing" ]; then
	skip 'nothing to install: exit 0, silent, no apt-get' \
		"packages missing here: $(echo $missing)"
	skip 'second run is still a no-op' "packages missing here"
else
	test_expect_success 'nothing to install: exit 0, silent, no apt-get' '
		PATH=$TRASH/fake:$PATH FAKE_APT_STATUS=1 "$DEPS" >out 2>err &&
		test_line_count -le 1 out &&
		test_line_count = 0 err &&
		test_line_count = 0 calls
	'
	test_expect_success 'second run is still a no-op' '
		PATH=$TRASH/fake:$PATH FAKE_APT_STATUS=1 "$DEPS" >out 2>err &&
		test_line_count -le 1 out &&
		test_line_count = 0 err &&
		test_line_count = 0 calls
	'
fi

test_expect_success 'dry run lists every package when none is installed' '
	: >calls &&
	PATH=$TRASH/dpkg:$TRASH/fake:$PATH FAKE_MISSING="*" \
		"$DEPS" --dry-run >out &&
	for p in build-essential pkg-config libaio-dev libblkid-dev \
		libmount-dev libjson-c-dev libyajl-dev libinih-dev libcmocka-dev \
		perl xfsprogs \
		btrfs-progs e2fsprogs util-linux bonnie++ fio jq \
		libxml2-utils libext2fs-dev xfslibs-dev jfsutils \
		reiserfsprogs man-db zstd gzip procps kmod liburing-dev strace \
		time; do
		grep -qxF "$p" out || { echo "missing $p" >&2; return 1; }
	done &&
	test_line_count = 30 out &&
	test_line_count = 0 calls
'

test_expect_success 'as root: apt-get update, then install only the missing' '
	: >calls &&
	PATH=$TRASH/root:$TRASH/dpkg:$TRASH/fake:$PATH FAKE_MISSING="jq fio" \
		"$DEPS" >out 2>err &&
	cat >expect <<-\EOF &&
	apt-get update -q
	apt-get install -y -q --no-install-recommends jq fio
	EOF
	test_cmp expect calls &&
	grep -q "installing jq fio" err
'

test_expect_success 'apt-get failing: exit 1 and say so' '
	: >calls &&
	test_expect_code 1 \
		env PATH=$TRASH/root:$TRASH/dpkg:$TRASH/fake:$PATH FAKE_MISSING=fio \
		FAKE_APT_STATUS=100 "$DEPS" >out 2>err &&
	grep -q "apt-get failed to install fio" err
'

test_expect_success 'not root, no sudo: exit 2, one line naming them' '
	: >calls &&
	test_expect_code 2 env PATH=$TRASH/nosudo FAKE_MISSING="fio bonnie++" \
		/bin/bash "$DEPS" >out 2>err &&
	test_line_count = 0 out &&
	test_line_count = 1 err &&
	grep -q "apt-get install bonnie++ fio" err &&
	test_line_count = 0 calls
'

test_expect_success 'not root, sudo there: apt-get through sudo' '
	: >calls &&
	PATH=$TRASH/nonroot:$TRASH/dpkg:$TRASH/fake:$PATH FAKE_MISSING=fio \
		"$DEPS" >out 2>err &&
	grep -qx "sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q" \
		calls &&
	grep -qx "apt-get install -y -q --no-install-recommends fio" calls
'

test_expect_success 'bad usage: exit 2' '
	test_expect_code 2 "$DEPS" --bogus 2>err &&
	grep -q usage err
'

test_done
