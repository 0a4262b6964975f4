/*
 * lexicon._dawgdic: reads the word forms of a pymorphy3 dictionary straight from its words.dawg.
 *
 * words.dawg is a dawgdic completion DAWG (the format of DAWG / DAWG-Python): a double-array
 * dictionary (u32 units) followed by a guide (two bytes per unit: first child label, next
 * sibling label). Each key is the UTF-8 word form, the byte 0x01 and the base64 of the
 * big-endian (paradigm id, form index) pair (">HH"): one key per reading, the readings of a
 * form together (0x01 sorts before every byte of a longer form).
 *
 *   scan_forms(dawg, paradigms, starts, tag_codes, letters, apostrophe, lemmas, keep)
 *       -> (accepted: bytes, skipped: bytes, skipped_codes: bytes, counts: dict, entries: int)
 *
 *   dawg       the bytes of words.dawg
 *   paradigms  every paradigm's u16 values one after the other (suffix ids, tag ids, prefix ids)
 *   starts     u32: where each paradigm begins in `paradigms`, plus the end (paradigm count + 1)
 *   tag_codes  u8 per gramtab entry: 0 the reading counts, 1..254 why it does not
 *   letters    the letters of a playable form (lower case, as in the dictionary)
 *   apostrophe forms may hold an apostrophe between letters (’ and ʼ are written ')
 *   lemmas     None, or (suffixes: list[bytes], prefixes: list[bytes], proper: bytes of lemmas
 *              each followed by "\n", code): a reading whose lemma is in `proper` does not
 *              count either (reason `code`)
 *
 * A form is accepted when its letters are playable, it has 2..15 of them and some reading
 * counts: the accepted forms come as UTF-8, each followed by "\n" (apostrophes written ').
 * The other distinct forms are counted by code in `counts`: 255 when their letters or length are
 * not playable, else the code of their first reading (in dictionary order). Those of code 255,
 * and the first `keep` of every other code, come in `skipped` (as spelt in the dictionary, each
 * followed by "\n") with their code in `skipped_codes`. The scan runs without the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KEY 1024
#define LETTER_FAIL 255
#define MIN_TILES 2
#define MAX_TILES 15

/* -- growable byte buffer ------------------------------------------------------------------ */

typedef struct {
    char *data;
    size_t len, cap;
    int oom;
} buf_t;

static void buf_put(buf_t *b, const void *src, size_t n) {
    if (b->oom) return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 1 << 16;
        while (cap < b->len + n) cap *= 2;
        char *d = realloc(b->data, cap);
        if (!d) {
            b->oom = 1;
            return;
        }
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, src, n);
    b->len += n;
}

/* -- the dawgdic structures ---------------------------------------------------------------- */

typedef struct {
    const uint32_t *units;
    size_t nunits;
    const uint8_t *guide; /* 2 bytes per unit */
} dawg_t;

static inline int has_leaf(uint32_t u) { return (u >> 8) & 1; }
static inline uint32_t unit_value(uint32_t u) { return u & 0x7FFFFFFFu; }
static inline uint32_t unit_label(uint32_t u) { return u & (0x80000000u | 0xFFu); }
static inline uint32_t unit_offset(uint32_t u) { return (u >> 10) << ((u & (1u << 9)) >> 6); }

/* The unit reached from `index` by `label`, or -1. */
static inline int64_t follow(const dawg_t *d, uint32_t index, uint8_t label) {
    uint32_t next = index ^ unit_offset(d->units[index]) ^ label;
    if (next >= d->nunits || unit_label(d->units[next]) != label) return -1;
    return next;
}

/* -- the lemma filter (uk) ------------------------------------------------------------------- */

typedef struct {
    const char *s;
    uint32_t len, chars;
} affix_t;

typedef struct {
    PyObject *suffixes, *prefixes; /* tuples of bytes (owned: the scan runs without the GIL) */
    affix_t *suf, *pre;
    size_t nsuf, npre;
    const char *proper;            /* lemmas, each followed by '\n' */
    size_t proper_len;
    uint32_t *slots; /* open addressing: offset + 1 into `proper`, 0 = empty */
    size_t mask;
    int code;
} lemmas_t;

static uint64_t hash_bytes(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 1099511628211ULL;
    return h;
}

static int lemmas_init(lemmas_t *l) {
    size_t count = 0;
    for (size_t i = 0; i < l->proper_len; i++) count += l->proper[i] == '\n';
    size_t size = 16;
    while (size < 2 * count + 16) size *= 2;
    l->slots = calloc(size, sizeof *l->slots);
    if (!l->slots) return -1;
    l->mask = size - 1;
    size_t start = 0;
    for (size_t i = 0; i < l->proper_len; i++) {
        if (l->proper[i] != '\n') continue;
        size_t j = hash_bytes(l->proper + start, i - start) & l->mask;
        while (l->slots[j]) j = (j + 1) & l->mask;
        l->slots[j] = (uint32_t)start + 1;
        start = i + 1;
    }
    return 0;
}

static int lemmas_has(const lemmas_t *l, const char *s, size_t n) {
    size_t j = hash_bytes(s, n) & l->mask;
    for (; l->slots[j]; j = (j + 1) & l->mask) {
        const char *e = l->proper + l->slots[j] - 1;
        if (memcmp(e, s, n) == 0 && e[n] == '\n') return 1;
    }
    return 0;
}

/* UTF-8 bytes taken by the first `chars` characters of s[0..n) (n if it has fewer). */
static size_t utf8_span(const char *s, size_t n, size_t chars) {
    size_t i = 0;
    while (chars && i < n) {
        i++;
        while (i < n && ((uint8_t)s[i] & 0xC0) == 0x80) i++;
        chars--;
    }
    return i;
}

static size_t utf8_chars(const char *s, size_t n) {
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += ((uint8_t)s[i] & 0xC0) != 0x80;
    return c;
}

/* Whether the lemma of `word` read as form `idx` of paradigm `p` (n forms) is a proper one:
 * pymorphy3's build_normal_form (strip the form's prefix and suffix, add the first form's). */
static int lemma_is_proper(const lemmas_t *l, const uint16_t *p, uint32_t n, uint32_t idx, const char *word,
                           size_t len) {
    if (idx == 0) return lemmas_has(l, word, len);
    size_t pre_chars = l->pre[p[2 * n + idx]].chars, suf_chars = l->suf[p[idx]].chars;
    size_t word_chars = utf8_chars(word, len);
    size_t from = utf8_span(word, len, pre_chars);
    size_t to = word_chars > suf_chars ? utf8_span(word, len, word_chars - suf_chars) : 0;
    if (to < from) to = from; /* Python's slice of an empty range */
    const affix_t *npre = &l->pre[p[2 * n]], *nsuf = &l->suf[p[0]];
    char lemma[3 * MAX_KEY];
    size_t a = npre->len, b = to - from, c = nsuf->len;
    if (a + b + c > sizeof lemma) return 0;
    memcpy(lemma, npre->s, a);
    memcpy(lemma + a, word + from, b);
    memcpy(lemma + a + b, nsuf->s, c);
    return lemmas_has(l, lemma, a + b + c);
}

/* -- the scan ----------------------------------------------------------------------------------- */

typedef struct {
    dawg_t d;
    const uint16_t *paradigms;
    size_t nvalues;
    const uint32_t *starts;
    size_t nparadigms;
    const uint8_t *tag_codes;
    size_t ntags;
    uint8_t letters[0x800]; /* code points below U+0800: 1 = a letter of playable forms */
    int apostrophe;
    lemmas_t *lemmas;
    buf_t accepted, skipped, codes;
    unsigned long long counts[256]; /* skipped forms by code */
    unsigned long long keep;        /* forms kept per code other than LETTER_FAIL */
    long long entries;
    const char *error; /* a malformed dictionary */
    /* the form being gathered */
    char word[MAX_KEY];
    size_t wlen;
    int have_word, verdict; /* verdict: -1 none yet, 0 counts, else the first reason */
} scan_t;

static int decode_reading(const char *b64, size_t n, uint32_t *para, uint32_t *idx) {
    static const char *alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    uint8_t out[6];
    size_t o = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n && b64[i] != '='; i++) {
        const char *pos = strchr(alphabet, b64[i]);
        if (!pos || !b64[i]) return -1;
        acc = (acc << 6) | (uint32_t)(pos - alphabet);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (o < sizeof out) out[o++] = (uint8_t)(acc >> bits);
        }
    }
    if (o != 4) return -1;
    *para = ((uint32_t)out[0] << 8) | out[1];
    *idx = ((uint32_t)out[2] << 8) | out[3];
    return 0;
}

/* 0 when the letters of s[0..n) make a playable form of 2..15 tiles; writes it (apostrophes as ')
 * to `out` and its length to *outlen. */
static int letters_ok(const scan_t *s, const char *w, size_t n, char *out, size_t *outlen) {
    size_t tiles = 0, o = 0;
    int prev_apos = 0, first_apos = 0, last_apos = 0;
    for (size_t i = 0; i < n;) {
        uint8_t c = (uint8_t)w[i];
        uint32_t cp;
        size_t k;
        if (c < 0x80) cp = c, k = 1;
        else if ((c & 0xE0) == 0xC0 && i + 1 < n) cp = ((c & 0x1Fu) << 6) | ((uint8_t)w[i + 1] & 0x3Fu), k = 2;
        else if ((c & 0xF0) == 0xE0 && i + 2 < n)
            cp = ((c & 0x0Fu) << 12) | (((uint8_t)w[i + 1] & 0x3Fu) << 6) | ((uint8_t)w[i + 2] & 0x3Fu), k = 3;
        else return 1;
        int apos = s->apostrophe && (cp == '\'' || cp == 0x2019 || cp == 0x02BC);
        if (apos) {
            if (tiles == 0) first_apos = 1;
            if (prev_apos) return 1;
            out[o++] = '\'';
        } else {
            if (cp >= 0x800 || !s->letters[cp]) return 1;
            memcpy(out + o, w + i, k);
            o += k;
        }
        prev_apos = last_apos = apos;
        tiles++;
        i += k;
    }
    if (first_apos || last_apos) return 1;
    *outlen = o;
    return tiles < MIN_TILES || tiles > MAX_TILES;
}

static void finish_word(scan_t *s) {
    if (!s->have_word) return;
    s->have_word = 0;
    char spelled[MAX_KEY];
    size_t slen = 0;
    uint8_t code;
    if (letters_ok(s, s->word, s->wlen, spelled, &slen)) code = LETTER_FAIL;
    else code = (uint8_t)(s->verdict < 0 ? LETTER_FAIL : s->verdict);
    if (code == 0) {
        buf_put(&s->accepted, spelled, slen);
        buf_put(&s->accepted, "\n", 1);
    } else if (code == LETTER_FAIL || s->counts[code] < s->keep) {
        buf_put(&s->skipped, s->word, s->wlen);
        buf_put(&s->skipped, "\n", 1);
        buf_put(&s->codes, &code, 1);
    }
    if (code) s->counts[code]++;
}

/* One reading's code: 0 when it counts. */
static int reading_code(scan_t *s, uint32_t para, uint32_t idx) {
    if (para >= s->nparadigms) {
        s->error = "a reading names a paradigm the dictionary does not have";
        return -1;
    }
    uint32_t start = s->starts[para], end = s->starts[para + 1];
    uint32_t n = (end - start) / 3;
    if (end > s->nvalues || end < start || idx >= n) {
        s->error = "a reading names a form its paradigm does not have";
        return -1;
    }
    const uint16_t *p = s->paradigms + start;
    uint32_t tag = p[n + idx];
    if (tag >= s->ntags) {
        s->error = "a reading names a tag the gramtab does not have";
        return -1;
    }
    int code = s->tag_codes[tag];
    if (code == 0 && s->lemmas && lemma_is_proper(s->lemmas, p, n, idx, s->word, s->wlen)) code = s->lemmas->code;
    return code;
}

/* Handles one complete key (form, 0x01, base64 reading). */
static void take_key(scan_t *s, const char *key, size_t n) {
    const char *sep = memchr(key, 1, n);
    if (!sep) {
        s->error = "a key of words.dawg has no reading";
        return;
    }
    size_t wlen = (size_t)(sep - key);
    uint32_t para, idx;
    if (decode_reading(sep + 1, n - wlen - 1, &para, &idx) < 0) {
        s->error = "a reading of words.dawg is not base64 of two u16";
        return;
    }
    s->entries++;
    if (!s->have_word || wlen != s->wlen || memcmp(key, s->word, wlen) != 0) {
        finish_word(s);
        memcpy(s->word, key, wlen);
        s->wlen = wlen;
        s->have_word = 1;
        s->verdict = -1;
    }
    if (s->verdict == 0) return; /* a reading already counts */
    int code = reading_code(s, para, idx);
    if (code < 0) return;
    if (code == 0 || s->verdict < 0) s->verdict = code;
}

/* Every key in order, as DAWG-Python's Completer walks the guide. */
static void scan_all(scan_t *s) {
    const dawg_t *d = &s->d;
    uint32_t stack[MAX_KEY + 1];
    char key[MAX_KEY];
    size_t depth = 0, klen = 0;
    stack[depth++] = 0;
    int first = 1;
    while (!s->error) {
        uint32_t index = stack[depth - 1];
        if (!first) {
            uint8_t child = d->guide[2 * (size_t)index];
            if (child) {
                int64_t next = follow(d, index, child);
                if (next < 0 || depth > MAX_KEY || klen >= MAX_KEY) goto corrupt;
                key[klen++] = (char)child;
                stack[depth++] = index = (uint32_t)next;
            } else {
                for (;;) {
                    uint8_t sibling = d->guide[2 * (size_t)index + 1];
                    if (klen) klen--;
                    if (--depth == 0) goto done;
                    index = stack[depth - 1];
                    if (sibling) {
                        int64_t next = follow(d, index, sibling);
                        if (next < 0) goto corrupt;
                        key[klen++] = (char)sibling;
                        stack[depth++] = index = (uint32_t)next;
                        break;
                    }
                }
            }
        }
        first = 0;
        while (!has_leaf(d->units[index])) { /* down to the next key's end */
            uint8_t label = d->guide[2 * (size_t)index];
            int64_t next = follow(d, index, label);
            if (next < 0 || depth > MAX_KEY || klen >= MAX_KEY) goto corrupt;
            key[klen++] = (char)label;
            stack[depth++] = index = (uint32_t)next;
        }
        take_key(s, key, klen);
    }
    goto done;
corrupt: /* a transition the guide names is missing, or a key longer than MAX_KEY bytes */
    s->error = "words.dawg is corrupt (a broken path or a key of over 1024 bytes)";
done:
    finish_word(s);
}

/* Reads the two parts of words.dawg; -1 with s->error set when the sizes do not add up. */
static int parse_dawg(scan_t *s, const uint8_t *data, size_t n) {
    uint32_t units, guide;
    if (n < 4) goto bad;
    memcpy(&units, data, 4);
    if ((size_t)units > (n - 4) / 4 || units == 0) goto bad;
    size_t at = 4 + (size_t)units * 4;
    if (n - at < 4) goto bad;
    memcpy(&guide, data + at, 4);
    at += 4;
    if ((size_t)guide != units || n - at < (size_t)guide * 2) goto bad;
    s->d.units = (const uint32_t *)(data + 4);
    s->d.nunits = units;
    s->d.guide = data + at;
    return 0;
bad:
    s->error = "words.dawg is not a dawgdic completion DAWG";
    return -1;
}

static affix_t *affixes(PyObject *tuple, size_t *count) {
    Py_ssize_t n = PyTuple_GET_SIZE(tuple);
    affix_t *a = calloc((size_t)n + 1, sizeof *a);
    if (!a) return (affix_t *)PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *b = PyTuple_GET_ITEM(tuple, i);
        if (!PyBytes_Check(b)) {
            free(a);
            PyErr_SetString(PyExc_TypeError, "suffixes and prefixes must be bytes");
            return NULL;
        }
        a[i].s = PyBytes_AS_STRING(b);
        a[i].len = (uint32_t)PyBytes_GET_SIZE(b);
        a[i].chars = (uint32_t)utf8_chars(a[i].s, a[i].len);
    }
    *count = (size_t)n;
    return a;
}

/* Reads (suffixes, prefixes, proper, code) and checks that every paradigm's ids name an entry. */
static int lemmas_parse(lemmas_t *l, PyObject *args, const scan_t *s) {
    PyObject *suffixes, *prefixes;
    const char *proper;
    Py_ssize_t plen;
    if (!PyArg_ParseTuple(args, "OOy#i:lemmas", &suffixes, &prefixes, &proper, &plen, &l->code)) return -1;
    if (!(l->suffixes = PySequence_Tuple(suffixes)) || !(l->prefixes = PySequence_Tuple(prefixes))) return -1;
    if (!(l->suf = affixes(l->suffixes, &l->nsuf)) || !(l->pre = affixes(l->prefixes, &l->npre))) return -1;
    for (size_t p = 0; p < s->nparadigms; p++) {
        uint32_t a = s->starts[p], b = s->starts[p + 1], n = a <= b ? (b - a) / 3 : 0;
        for (uint32_t i = 0; b <= s->nvalues && i < n; i++)
            if (s->paradigms[a + i] >= l->nsuf || s->paradigms[a + 2 * n + i] >= l->npre) {
                PyErr_SetString(PyExc_ValueError, "a paradigm names a suffix or prefix the dictionary lacks");
                return -1;
            }
    }
    l->proper = proper;
    l->proper_len = (size_t)plen;
    if (lemmas_init(l) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void lemmas_free(lemmas_t *l) {
    free(l->slots);
    free(l->suf);
    free(l->pre);
    Py_XDECREF(l->suffixes);
    Py_XDECREF(l->prefixes);
}

static PyObject *py_scan_forms(PyObject *self, PyObject *args) {
    Py_buffer dawg, para, starts, tags;
    PyObject *letters, *lemma_args;
    int apostrophe;
    unsigned long long keep;
    if (!PyArg_ParseTuple(args, "y*y*y*y*UpOK:scan_forms", &dawg, &para, &starts, &tags, &letters, &apostrophe,
                          &lemma_args, &keep))
        return NULL;
    PyObject *result = NULL;
    scan_t *s = calloc(1, sizeof *s);
    lemmas_t lem = {0};
    if (!s) {
        PyErr_NoMemory();
        goto out;
    }
    s->paradigms = para.buf;
    s->nvalues = (size_t)para.len / 2;
    s->starts = starts.buf;
    s->nparadigms = (size_t)starts.len / 4 ? (size_t)starts.len / 4 - 1 : 0;
    s->tag_codes = tags.buf;
    s->ntags = (size_t)tags.len;
    s->apostrophe = apostrophe;
    s->keep = keep;
    for (Py_ssize_t i = 0; i < PyUnicode_GET_LENGTH(letters); i++) {
        Py_UCS4 cp = PyUnicode_READ_CHAR(letters, i);
        if (cp < 0x800) s->letters[cp] = 1;
    }
    if (lemma_args != Py_None) {
        if (lemmas_parse(&lem, lemma_args, s) < 0) goto out;
        s->lemmas = &lem;
    }
    if (parse_dawg(s, dawg.buf, (size_t)dawg.len) == 0) {
        Py_BEGIN_ALLOW_THREADS
        scan_all(s);
        Py_END_ALLOW_THREADS
    }
    if (s->error) {
        PyErr_SetString(PyExc_ValueError, s->error);
        goto out;
    }
    if (s->accepted.oom || s->skipped.oom || s->codes.oom) {
        PyErr_NoMemory();
        goto out;
    }
    PyObject *counts = PyDict_New();
    for (int c = 1; counts && c < 256; c++) {
        if (!s->counts[c]) continue;
        PyObject *k = PyLong_FromLong(c), *v = PyLong_FromUnsignedLongLong(s->counts[c]);
        if (!k || !v || PyDict_SetItem(counts, k, v) < 0) Py_CLEAR(counts);
        Py_XDECREF(k);
        Py_XDECREF(v);
    }
    if (!counts) goto out;
    result = Py_BuildValue("(y#y#y#NL)", s->accepted.data ? s->accepted.data : "", (Py_ssize_t)s->accepted.len,
                           s->skipped.data ? s->skipped.data : "", (Py_ssize_t)s->skipped.len,
                           s->codes.data ? s->codes.data : "", (Py_ssize_t)s->codes.len, counts, s->entries);
out:
    if (s) {
        free(s->accepted.data);
        free(s->skipped.data);
        free(s->codes.data);
        free(s);
    }
    lemmas_free(&lem);
    PyBuffer_Release(&dawg);
    PyBuffer_Release(&para);
    PyBuffer_Release(&starts);
    PyBuffer_Release(&tags);
    return result;
}

static PyMethodDef module_methods[] = {
    {"scan_forms", py_scan_forms, METH_VARARGS,
     "scan_forms(dawg, paradigms, starts, tag_codes, letters, apostrophe, lemmas, keep)"
     " -> (accepted, skipped, skipped_codes, counts, entries)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef dawgdic_module = {
    PyModuleDef_HEAD_INIT, "lexicon._dawgdic", "Word forms of a pymorphy3 dictionary, read from words.dawg.", -1,
    module_methods,
};

PyMODINIT_FUNC PyInit__dawgdic(void) {
    PyObject *m = PyModule_Create(&dawgdic_module);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "LETTER_FAIL", LETTER_FAIL) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
