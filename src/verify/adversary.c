/* One of grundy verify's built-in adversaries: a cheap wrong program that
 * a package's tests must refuse. `src/verify/adversaries.rs` puts the
 * settings in front of this text:
 *
 *   MODE   1 print TEXT as it is, 2 print TEXT once per case,
 *          3 echo the input, 4 random tokens of SHAPE, 5 a heuristic
 *   MULTI  1: the first number of the input is the number of cases and the
 *          answer has one line per case; 0: the answer is LINES lines
 *   LINES  the lines printed without MULTI (modes 2 and 4)
 *   HEUR   the heuristic on a case's numbers: 0 parity of the count,
 *          1 of the sum, 2 of the maximum, 3 of the first number, 4 of the
 *          last, 5 all equal; true prints WORD_A, false WORD_B
 *   TEXT, SHAPE, WORD_A, WORD_B  strings
 *
 * SHAPE is one line's tokens separated by '\t': `#LO,HI` an integer in
 * LO..=HI, else a word among those separated by '|'.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *buf;
static size_t len;

static void slurp(void) {
    size_t cap = 1 << 16;
    buf = malloc(cap);
    for (;;) {
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
        size_t got = fread(buf + len, 1, cap - len, stdin);
        if (got == 0)
            break;
        len += got;
    }
}

/* The integers of the input, each with the line it is on. */
static long long *num;
static size_t *num_line;
static size_t nums, lines;

static void scan(void) {
    num = malloc((len / 2 + 2) * sizeof *num);
    num_line = malloc((len / 2 + 2) * sizeof *num_line);
    size_t i = 0, line = 0;
    while (i < len) {
        if (buf[i] == '\n') {
            line++;
            i++;
            continue;
        }
        if (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r') {
            i++;
            continue;
        }
        size_t start = i;
        while (i < len && buf[i] != ' ' && buf[i] != '\n' && buf[i] != '\t' && buf[i] != '\r')
            i++;
        char *end;
        char tmp[32];
        size_t n = i - start < 31 ? i - start : 31;
        memcpy(tmp, buf + start, n);
        tmp[n] = 0;
        long long v = strtoll(tmp, &end, 10);
        if (*end == 0 && end != tmp) {
            num[nums] = v;
            num_line[nums] = line;
            nums++;
        }
    }
    lines = line + (len > 0 && buf[len - 1] != '\n');
}

static unsigned long long rng_state;
static unsigned long long next(void) {
    unsigned long long z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void random_line(void) {
    const char *p = SHAPE;
    int first = 1;
    while (*p) {
        const char *end = strchr(p, '\t');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (!first)
            putchar(' ');
        first = 0;
        if (*p == '#') {
            long long lo, hi;
            sscanf(p + 1, "%lld,%lld", &lo, &hi);
            unsigned long long span = (unsigned long long)(hi - lo) + 1;
            printf("%lld", lo + (long long)(span ? next() % span : next()));
        } else {
            size_t words = 1;
            for (size_t i = 0; i < n; i++)
                words += p[i] == '|';
            size_t pick = next() % words, at = 0;
            for (size_t i = 0; i < n; i++) {
                if (p[i] == '|') {
                    at++;
                    continue;
                }
                if (at == pick)
                    putchar(p[i]);
            }
        }
        p += n;
        if (*p == '\t')
            p++;
    }
    putchar('\n');
}

/* The heuristic on the numbers num[from..to]: a leading count of the
 * numbers that follow it is not one of them. */
static int heuristic(size_t from, size_t to) {
    if (to > from + 1 && num[from] == (long long)(to - from - 1))
        from++;
    size_t count = to - from;
    long long sum = 0, max = 0;
    int equal = 1;
    for (size_t i = from; i < to; i++) {
        sum += num[i];
        if (i == from || num[i] > max)
            max = num[i];
        if (num[i] != num[from])
            equal = 0;
    }
    switch (HEUR) {
    case 0:
        return count % 2 == 1;
    case 1:
        return sum % 2 != 0;
    case 2:
        return max % 2 != 0;
    case 3:
        return count > 0 && num[from] % 2 != 0;
    case 4:
        return count > 0 && num[to - 1] % 2 != 0;
    default:
        return equal;
    }
}

static void say(int yes) { puts(yes ? WORD_A : WORD_B); }

/* One word per case: cases of equal numbers of lines after the first, else
 * cases each a count and that many numbers, else the whole input for each. */
static void per_case(long long cases) {
    if (cases <= 0)
        return;
    size_t rest = lines > 1 ? lines - 1 : 0;
    if (rest > 0 && rest % (size_t)cases == 0) {
        size_t per = rest / (size_t)cases, i = 1;
        for (long long c = 0; c < cases; c++) {
            size_t lo = 1 + (size_t)c * per, hi = lo + per, from = i;
            while (i < nums && num_line[i] < hi)
                i++;
            (void)lo;
            say(heuristic(from, i));
        }
        return;
    }
    size_t i = 1;
    long long c = 0;
    int *answers = malloc((size_t)cases * sizeof *answers);
    while (c < cases && i < nums && num[i] >= 0 && (size_t)num[i] < nums - i) {
        size_t to = i + 1 + (size_t)num[i];
        answers[c++] = heuristic(i, to);
        i = to;
    }
    if (c == cases && i == nums) {
        for (c = 0; c < cases; c++)
            say(answers[c]);
        return;
    }
    for (c = 0; c < cases; c++)
        say(heuristic(1, nums));
}

int main(void) {
    slurp();
    if (MODE == 1) {
        fputs(TEXT, stdout);
        return 0;
    }
    if (MODE == 3) {
        fwrite(buf, 1, len, stdout);
        return 0;
    }
    scan();
    rng_state = 0x5EEDULL + len * 0x100000001B3ULL;
    long long cases = MULTI ? (nums > 0 ? num[0] : 0) : LINES;
    if (cases > 1000000)
        cases = 1000000;
    if (MODE == 5) {
        if (MULTI)
            per_case(cases);
        else
            say(heuristic(0, nums));
        return 0;
    }
    for (long long c = 0; c < cases; c++) {
        if (MODE == 2)
            puts(TEXT);
        else
            random_line();
    }
    return 0;
}
