#!/bin/sh
# templates/generate.sh FILE... : the C source of the report's built-in
# templates (report/write/templates.h) on stdout, one NUL-terminated byte array
# per FILE, named by its base name.  The GNUmakefile writes its output to
# templates/templates.c; it lives here, beside its inputs and its output,
# because it is a step of the build, not a tool a user runs (scripts/).
set -e

# the C identifier of a file's array: t_ and its base name, every byte
# that is not a letter or digit as _
array () {
	printf 't_%s' "$(basename "$1" | tr -c 'a-zA-Z0-9\n' _)"
}

echo '/* generated from templates/ by templates/generate.sh: do not edit */'
echo '#include "report/write/templates.h"'
echo '#include <string.h>'
for f in "$@"; do
	# od in a pipe: its failure would go unseen
	[ -f "$f" ] && [ -r "$f" ] || {
		echo "templates/generate.sh: cannot read '$f'" >&2
		exit 1
	}
	echo "static const unsigned char $(array "$f")[] = {"
	od -An -v -tx1 "$f" | sed 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g'
	echo '0x00 };'
done
cat <<'END'
/* the built-in templates, ended by an entry with name NULL */
static const struct template_file {
	const char *name;	/* "report.html" */
	const char *text;	/* NUL-terminated */
	size_t len;
} template_files[] = {
END
for f in "$@"; do
	n=$(array "$f")
	echo "	{ \"$(basename "$f")\", (const char *)$n, sizeof($n) - 1 },"
done
cat <<'END'
	{ NULL, NULL, 0 },
};
const char *template_builtin(const char *name, size_t *len)
{
	const struct template_file *t;
	for (t = template_files; t->name; t++)
		if (!strcmp(t->name, name)) {
			*len = t->len;
			return t->text;
		}
	return NULL;
}
END
