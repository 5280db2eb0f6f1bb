// SPDX-License-Identifier: GPL-2.0-only
/*
 * Data validation units: header, unique data, checksum.  The checksum is a
 * four-lane multiply-xor hash over 64-bit words; each step is a bijection
 * of the lane's state, so any change confined to one word (a flipped byte,
 * a torn sector inside a word) always changes the sum.
 */
#include "fsops/verify.h"

#include <string.h>

#include "fsops/datagen.h"

#define VERIFY_MAGIC 0x5659594cu	/* "LYYV" */
#define SUM_MUL 0x100000001b3ull

/* Header layout, little or big endian as the host: it never travels. */
struct verify_hdr {
	uint32_t magic;
	uint32_t stream;
	uint64_t offset;
	uint32_t gen;
	uint32_t pad;
	uint64_t sum;
};

_Static_assert(sizeof(struct verify_hdr) == VERIFY_HDR_SIZE,
	       "verify header size");

static uint64_t unit_sum(const void *buf, size_t unit)
{
	const unsigned char *p = buf;
	uint64_t l[4] = {
		0x9e3779b97f4a7c15ull, 0xbf58476d1ce4e5b9ull,
		0x94d049bb133111ebull, 0x2545f4914f6cdd1dull,
	};
	uint64_t w[4], h;
	size_t i, n = unit / 8;

	/* the sum field (word 3) counts as zero */
	for (i = 0; i + 4 <= n; i += 4) {
		memcpy(w, p + i * 8, sizeof(w));
		if (i == 0)
			w[3] = 0;
		l[0] = (l[0] ^ w[0]) * SUM_MUL;
		l[1] = (l[1] ^ w[1]) * SUM_MUL;
		l[2] = (l[2] ^ w[2]) * SUM_MUL;
		l[3] = (l[3] ^ w[3]) * SUM_MUL;
	}
	for (; i < n; i++) {
		memcpy(w, p + i * 8, 8);
		l[i & 3] = (l[i & 3] ^ w[0]) * SUM_MUL;
	}
	h = l[0];
	h = (h ^ l[1]) * SUM_MUL;
	h = (h ^ l[2]) * SUM_MUL;
	h = (h ^ l[3]) * SUM_MUL;
	return h ^ (h >> 29);
}

void verify_stamp(void *buf, size_t unit, const struct verify_id *id,
		  uint64_t seed)
{
	struct verify_hdr h;

	datagen_fill((char *)buf + VERIFY_HDR_SIZE, unit - VERIFY_HDR_SIZE,
		     seed ^ ((uint64_t)id->gen << 32), id->stream,
		     id->offset + VERIFY_HDR_SIZE);
	memset(&h, 0, sizeof(h));
	h.magic = VERIFY_MAGIC;
	h.stream = id->stream;
	h.offset = id->offset;
	h.gen = id->gen;
	memcpy(buf, &h, sizeof(h));
	h.sum = unit_sum(buf, unit);
	memcpy(buf, &h, sizeof(h));
}

enum verify_result verify_check(const void *buf, size_t unit,
				const struct verify_id *want,
				struct verify_id *found)
{
	struct verify_hdr h;

	memcpy(&h, buf, sizeof(h));
	memset(found, 0, sizeof(*found));
	if (h.magic != VERIFY_MAGIC)
		return VERIFY_BAD_MAGIC;
	found->offset = h.offset;
	found->stream = h.stream;
	found->gen = h.gen;
	if (h.sum != unit_sum(buf, unit))
		return VERIFY_BAD_SUM;
	if (h.offset != want->offset || h.stream != want->stream)
		return VERIFY_BAD_ID;
	if (want->gen != VERIFY_ANY_GEN && h.gen != want->gen)
		return VERIFY_BAD_GEN;
	return VERIFY_OK;
}

int verify_header_names(const void *buf, uint64_t offset)
{
	struct verify_hdr h;

	memcpy(&h, buf, sizeof(h));
	return h.magic == VERIFY_MAGIC && h.offset == offset;
}

const char *verify_result_str(enum verify_result r)
{
	switch (r) {
	case VERIFY_OK:
		return "intact";
	case VERIFY_BAD_MAGIC:
		return "no clyde verify header";
	case VERIFY_BAD_SUM:
		return "checksum mismatch";
	case VERIFY_BAD_ID:
		return "block from another place";
	case VERIFY_BAD_GEN:
		return "stale generation";
	}
	return "unknown";
}
