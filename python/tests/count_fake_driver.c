/* A driver with known work per call, for the counting tests: each call does
 * ADDS integer additions. It follows contract v2 (serve mode) and answers
 * with the real reference outputs, so only the misbehaviour MODE names fails it.
 *
 *   count_fake_driver ADDS MODE --driver-id ID <contract options>
 *   MODE: ok | crash (SIGSEGV in its second round) | hang (in its second round)
 *         | crash-once (crash, unless the file FAKE_CRASH_MARKER names exists; it makes it)
 *         | crash-after-first (crash if that file exists; else make it and count)
 *         | wrong-outputs
 *         | jit: like a JIT's driver, each round also starts a "collector" thread doing a
 *           tenth of the round's additions; its first three rounds also start a "compiler"
 *           thread doing five, four, then three times them, and the calls themselves cost
 *           double there
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *option(int argc, char **argv, const char *name, const char *fallback) {
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], name) == 0) return argv[i + 1];
    return fallback;
}

/* ADDS additions the compiler cannot fold: the asm makes acc opaque each step. */
static long call(long adds) {
    long acc = 0;
    for (long i = 0; i < adds; i++) {
        acc += i;
        __asm__ volatile("" : "+r"(acc));
    }
    return acc;
}

static void *busy(void *adds) {
    static volatile long sink;
    sink = call(*(long *)adds);
    return NULL;
}

/* A thread doing `adds` additions beside the caller, joined before the round answers. */
static pthread_t beside(long *adds) {
    pthread_t thread;
    pthread_create(&thread, NULL, busy, adds);
    return thread;
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    long adds = atol(argv[1]);
    const char *mode = argv[2];
    const char *id = option(argc, argv, "--driver-id", "cpp-fake-count");
    long calls = atol(option(argc, argv, "--calls", "1"));
    long batch = atol(option(argc, argv, "--batch", "1"));
    long warmup = atol(option(argc, argv, "--warmup", "0"));
    char path[4096];
    snprintf(path, sizeof path, "%s/reference.f32", option(argc, argv, "--models", "models"));
    FILE *ref = fopen(path, "rb");
    if (ref == NULL) {
        fprintf(stderr, "%s: error: %s: cannot open\n", id, path);
        return 1;
    }
    float *reference = malloc(sizeof(float) * (size_t)(calls * batch));
    size_t got = fread(reference, sizeof(float), (size_t)(calls * batch), ref);
    fclose(ref);
    volatile long sink = 0;
    for (long w = 0; w < warmup; w++) sink = call(adds);
    printf("{\"event\": \"ready\", \"load_ns\": 1000}\n");
    fflush(stdout);
    char line[256], rounds[65536] = "";
    long last = 0, served = 0;
    while (fgets(line, sizeof line, stdin)) {
        long k;
        if (strncmp(line, "end", 3) == 0) break;
        if (sscanf(line, "round %ld", &k) != 1 || k < 1 || k > calls) {
            fprintf(stderr, "%s: usage: bad command %s", id, line);
            return 2;
        }
        if (served == 1 && strcmp(mode, "crash") == 0) raise(SIGSEGV);
        if (served == 1 && strcmp(mode, "crash-once") == 0) {
            /* The first process to get here leaves FAKE_CRASH_MARKER behind and dies. */
            const char *marker = getenv("FAKE_CRASH_MARKER");
            if (marker != NULL && access(marker, F_OK) != 0) {
                FILE *left = fopen(marker, "w");
                if (left != NULL) fclose(left);
                raise(SIGSEGV);
            }
        }
        if (served == 1 && strcmp(mode, "crash-after-first") == 0) {
            /* The first process leaves FAKE_CRASH_MARKER behind; any later one dies. */
            const char *marker = getenv("FAKE_CRASH_MARKER");
            if (marker != NULL && access(marker, F_OK) == 0) raise(SIGSEGV);
            FILE *left = marker != NULL ? fopen(marker, "w") : NULL;
            if (left != NULL) fclose(left);
        }
        if (served == 1 && strcmp(mode, "hang") == 0) sleep(600);
        if (strcmp(mode, "jit") == 0) {
            int compiling = served < 3;
            long collected = k * adds / 10, compiled = (5 - served) * k * adds;
            pthread_t collector = beside(&collected), compiler = collector;
            if (compiling) compiler = beside(&compiled);
            for (long c = 0; c < k * (compiling ? 2 : 1); c++) sink = call(adds);
            pthread_join(collector, NULL);
            if (compiling) pthread_join(compiler, NULL);
        } else {
            for (long c = 0; c < k; c++) sink = call(adds);
        }
        char one[96];
        snprintf(one, sizeof one, "%s{\"calls\": %ld, \"ns\": %ld}", served ? ", " : "", k, k);
        strncat(rounds, one, sizeof rounds - strlen(rounds) - 1);
        printf("{\"event\": \"round\", \"calls\": %ld, \"ns\": %ld}\n", k, k);
        fflush(stdout);
        last = k;
        served++;
    }
    FILE *out = fopen(option(argc, argv, "--outputs", "/dev/null"), "wb");
    if (strcmp(mode, "wrong-outputs") == 0) memset(reference, 0, sizeof(float) * (size_t)got);
    fwrite(reference, sizeof(float), (size_t)(last * batch), out);
    fclose(out);
    printf("{\"driver\": \"%s\", \"calls\": %ld, \"batch\": %ld, \"threads\": 1, "
           "\"runtime_version\": \"0\", \"load_ns\": 1000, \"peak_rss_bytes\": null, "
           "\"rounds\": [%s], \"notes\": {}}\n",
           id, calls, batch, rounds);
    free(reference);
    return (int)(sink & 0);
}
