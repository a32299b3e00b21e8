/* Presets: round trips, the shipped set, a corpus of bad files, saving
 * without clobbering, NAME.ini as NAME, shipped presets not shadowed by
 * accident, directories named as such, and a save that fails half way. */
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "formats/preset.h"

static char tmpdir[256];

static void set_everything(rs_request *r)
{
    rs_error err;
    static const struct {
        const char *section, *key, *value;
    } values[] = {
        {"run", "variant", "vectorized"},
        {"run", "variants", "atomic,unrolled..cub"},
        {"run", "type", "bfloat16"},
        {"run", "op", "max"},
        {"run", "n", "1024*65535"},
        {"run", "block", "512"},
        {"run", "grid", "0"},
        {"run", "elements_per_thread", "16"},
        {"run", "finish", "cpu"},
        {"run", "warmup", "7"},
        {"run", "repetitions", "99"},
        {"run", "input", "signed"},
        {"run", "seed", "18446744073709551615"},
        {"run", "device", "3"},
        {"run", "metrics", "full"},
        {"sweep", "range", "1K..1G:4"},
        {"preset", "note", "every field; = and 'quotes' and #hash survive"},
    };
    rs_request_defaults(r);
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        const rs_field *f = rs_field_by_key(values[i].section, values[i].key);
        CHECK_MSG(f && rs_field_set(r, f, values[i].value, &err) == RS_OK, "%s", values[i].key);
    }
}

static void round_trip(void)
{
    rs_request r, back;
    rs_error err;
    set_everything(&r);
    char path[512];
    snprintf(path, sizeof path, "%s/all.ini", tmpdir);
    CHECK_MSG(rs_preset_write(path, &r, 0, &err) == RS_OK, "%s", err.msg);
    CHECK_MSG(rs_preset_read_file(path, &back, &err) == RS_OK, "%s", err.msg);
    CHECK(rs_request_equal(&r, &back));
    for (int i = 0; i < RS_FIELD_COUNT; i++) {
        char a[512], b[512];
        rs_field_format(&r, &rs_fields[i], a, sizeof a);
        rs_field_format(&back, &rs_fields[i], b, sizeof b);
        CHECK_MSG(strcmp(a, b) == 0, "%s: '%s' came back as '%s'", rs_fields[i].key, a, b);
    }
    /* Without --force an existing file stays as it was (refused as every
     * output is: exit 2, "add --force"). */
    rs_request other;
    rs_request_defaults(&other);
    CHECK(rs_preset_write(path, &other, 0, &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "exists: add --force to replace it");
    CHECK(rs_preset_read_file(path, &back, &err) == RS_OK && rs_request_equal(&r, &back));
    CHECK(rs_preset_write(path, &other, 1, &err) == RS_OK);
    CHECK(rs_preset_read_file(path, &back, &err) == RS_OK && rs_request_equal(&other, &back));
    /* A note INI would cut at " ;" is refused, not mangled. */
    CHECK(rs_field_set(&other, rs_field_by_key("preset", "note"), "a ; b", &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "comment");
    /* Partial presets: the rest are defaults. */
    CHECK(rs_preset_read_string("[run]\nn = 2^10\n; comment\n\n", "mem", &back, &err) == RS_OK);
    CHECK(back.n == 1024 && back.block == 256 && back.variants == 0);
}

static void saving(void)
{
    rs_request r;
    rs_error err;
    char path[RS_PATH_MAX];
    rs_request_defaults(&r);
    CHECK(rs_preset_save("my-class_1.b", &r, 0, path, sizeof path, &err) == RS_OK);
    char expect[512];
    snprintf(expect, sizeof expect, "%s/redscope/presets/my-class_1.b.ini", tmpdir);
    CHECK_MSG(strcmp(path, expect) == 0, "%s", path);
    CHECK(rs_preset_save("my-class_1.b", &r, 0, path, sizeof path, &err) == RS_E_USAGE);
    CHECK(rs_preset_save("../evil", &r, 1, path, sizeof path, &err) == RS_E_USAGE);
    CHECK(rs_preset_save(".hidden", &r, 1, path, sizeof path, &err) == RS_E_USAGE);
    CHECK(rs_preset_save("", &r, 1, path, sizeof path, &err) == RS_E_USAGE);
    CHECK(rs_preset_resolve("my-class_1.b", path, sizeof path, &err) == RS_OK);
    CHECK(rs_preset_resolve("harris-2007", path, sizeof path, &err) == RS_OK);
    CHECK(rs_preset_resolve("nope", path, sizeof path, &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "no preset named 'nope'");
}

static int listed(const char *name)
{
    int n = 0;
    rs_preset_info *list = rs_preset_list(&n);
    int found = 0;
    for (int i = 0; i < n; i++) found += strcmp(list[i].name, name) == 0;
    free(list);
    return found;
}

/* NAME.ini is the preset NAME: saved, resolved and listed as NAME. */
static void ini_suffix(void)
{
    rs_request r, back;
    rs_error err;
    char path[RS_PATH_MAX], again[RS_PATH_MAX], expect[512];
    rs_request_defaults(&r);
    r.n = 5000;
    CHECK_MSG(rs_preset_save("dotted.ini", &r, 0, path, sizeof path, &err) == RS_OK, "%s", err.msg);
    snprintf(expect, sizeof expect, "%s/redscope/presets/dotted.ini", tmpdir);
    CHECK_MSG(strcmp(path, expect) == 0, "saved as %s", path);
    CHECK(listed("dotted") == 1 && listed("dotted.ini") == 0);
    CHECK(rs_preset_resolve("dotted", again, sizeof again, &err) == RS_OK);
    CHECK(strcmp(again, expect) == 0);
    CHECK(rs_preset_resolve("dotted.ini", again, sizeof again, &err) == RS_OK);
    CHECK(strcmp(again, expect) == 0 && rs_preset_read_file(again, &back, &err) == RS_OK);
    CHECK(back.n == 5000);
    CHECK(rs_preset_save("dotted", &r, 0, path, sizeof path, &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "exists");
    CHECK(!rs_preset_would_shadow("dotted"));
    unlink(expect);
}

/* A shipped preset's name is refused without force, distinctly from
 * "exists"; with force the user's preset hides the shipped one. */
static void shadowing(void)
{
    rs_request r, back;
    rs_error err;
    char path[RS_PATH_MAX], mine[512];
    rs_request_defaults(&r);
    r.n = 777;
    snprintf(mine, sizeof mine, "%s/redscope/presets/harris-2007.ini", tmpdir);
    CHECK(rs_preset_would_shadow("harris-2007") && rs_preset_would_shadow("harris-2007.ini"));
    CHECK(!rs_preset_would_shadow("not-shipped") && !rs_preset_would_shadow("../x"));
    for (int i = 0; i < 2; i++) {
        const char *name = i ? "harris-2007.ini" : "harris-2007";
        CHECK(rs_preset_save(name, &r, 0, path, sizeof path, &err) == RS_E_USAGE);
        CHECK_STR_CONTAINS(err.msg, "would shadow the shipped preset");
        CHECK_MSG(access(mine, F_OK) != 0, "%s saved without force", name);
    }
    CHECK(rs_preset_save("harris-2007", &r, 1, path, sizeof path, &err) == RS_OK);
    CHECK(strcmp(path, mine) == 0 && !rs_preset_would_shadow("harris-2007"));
    CHECK(rs_preset_resolve("harris-2007", path, sizeof path, &err) == RS_OK);
    CHECK(strcmp(path, mine) == 0 && rs_preset_read_file(path, &back, &err) == RS_OK);
    CHECK(back.n == 777);
    /* Now it is the user's own: saving again is "exists", not "shadow". */
    CHECK(rs_preset_save("harris-2007", &r, 0, path, sizeof path, &err) == RS_E_USAGE);
    CHECK(strstr(err.msg, "exists") && !strstr(err.msg, "shadow"));
    unlink(mine);
}

/* A directory given as a preset is called one, by path or by bare name. */
static void directories(void)
{
    rs_error err;
    char path[RS_PATH_MAX];
    CHECK(rs_preset_resolve(tmpdir, path, sizeof path, &err) == RS_E_IO);
    CHECK_STR_CONTAINS(err.msg, "is a directory");
    char cwd[RS_PATH_MAX];
    CHECK(getcwd(cwd, sizeof cwd) != NULL && chdir(tmpdir) == 0);
    CHECK(rs_preset_resolve("redscope", path, sizeof path, &err) == RS_E_IO);
    CHECK_STR_CONTAINS(err.msg, "'redscope' is a directory");
    CHECK(chdir(cwd) == 0);
}

static void shipped(void)
{
    int n = 0;
    rs_preset_info *list = rs_preset_list(&n);
    int shipped = 0;
    for (int i = 0; i < n; i++) {
        CHECK_MSG(list[i].valid, "%s: %s", list[i].path, list[i].error);
        if (!list[i].shipped) continue;
        shipped++;
        CHECK_MSG(strlen(list[i].note) > 20, "%s has no note", list[i].name);
    }
    CHECK_MSG(shipped >= 6, "only %d shipped presets found in '%s'", shipped,
              rs_preset_shipped_dir());
    free(list);
    rs_request r;
    rs_error err;
    char path[RS_PATH_MAX];
    CHECK(rs_preset_resolve("harris-2007", path, sizeof path, &err) == RS_OK);
    CHECK(rs_preset_read_file(path, &r, &err) == RS_OK);
    CHECK(r.type == RS_INT32 && r.n == (1u << 22) && r.block == 128);
    CHECK(rs_preset_resolve("student-lab", path, sizeof path, &err) == RS_OK);
    CHECK(rs_preset_read_file(path, &r, &err) == RS_OK);
    CHECK(r.type == RS_FLOAT32 && r.n == 1024u * 65535u && r.block == 128);
    CHECK(r.variants == ((1u << (RS_V_UNROLL_WARP + 1)) - 2)); /* interleaved..unroll_warp */
}

static void bad_corpus(void)
{
    DIR *d = opendir(TEST_BAD_DIR);
    CHECK(d != NULL);
    if (!d) return;
    struct dirent *de;
    int files = 0;
    while ((de = readdir(d))) {
        if (!strstr(de->d_name, ".ini")) continue;
        files++;
        char path[512], line1[256], line2[256];
        snprintf(path, sizeof path, "%s/%s", TEST_BAD_DIR, de->d_name);
        FILE *f = fopen(path, "r");
        CHECK(f && fgets(line1, sizeof line1, f) && fgets(line2, sizeof line2, f));
        fclose(f);
        int line = 0;
        CHECK(sscanf(line1, "; expect-line: %d", &line) == 1);
        char *text = strstr(line2, "expect-text: ") + strlen("expect-text: ");
        text[strcspn(text, "\n")] = '\0';
        rs_request r, before;
        rs_error err;
        rs_request_defaults(&r);
        r.n = 12345;
        before = r;
        CHECK_MSG(rs_preset_read_file(path, &r, &err) == RS_E_USAGE, "%s was accepted", path);
        char where[600];
        snprintf(where, sizeof where, "%s:%d: ", path, line);
        CHECK_MSG(strncmp(err.msg, where, strlen(where)) == 0, "%s: got '%s'", de->d_name, err.msg);
        CHECK_MSG(strstr(err.msg, text) != NULL, "%s: '%s' lacks '%s'", de->d_name, err.msg, text);
        CHECK(rs_request_equal(&r, &before)); /* whole or not at all */
    }
    closedir(d);
    CHECK(files >= 12);
}

static int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *de;
    while (d && (de = readdir(d)))
        if (de->d_name[0] != '.') n++;
    if (d) closedir(d);
    return n;
}

/* A real failure half way: the file-size limit makes write() fail after 64
 * bytes. The old preset must survive whole, and no temporary file stays. */
static void failed_save_keeps_old(void)
{
    char dir[512], path[600];
    snprintf(dir, sizeof dir, "%s/failing", tmpdir);
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/keep.ini", dir);
    rs_request old, fresh, back;
    rs_error err;
    set_everything(&old);
    CHECK(rs_preset_write(path, &old, 0, &err) == RS_OK);
    rs_request_defaults(&fresh);
    const pid_t pid = fork();
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit lim = {64, 64};
        setrlimit(RLIMIT_FSIZE, &lim);
        const rs_status st = rs_preset_write(path, &fresh, 1, &err);
        _exit(st == RS_E_IO && strstr(err.msg, "cannot write") ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the limited write did not fail");
    CHECK(rs_preset_read_file(path, &back, &err) == RS_OK && rs_request_equal(&old, &back));
    CHECK(count_files(dir) == 1);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/rs_preset_test_XXXXXX");
    CHECK(mkdtemp(tmpdir) != NULL);
    setenv("XDG_CONFIG_HOME", tmpdir, 1);
    unsetenv("REDSCOPE_DATA_DIR");
    round_trip();
    saving();
    ini_suffix();
    shadowing();
    directories();
    shipped();
    bad_corpus();
    failed_save_keeps_old();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
    return check_report("test_preset");
}
