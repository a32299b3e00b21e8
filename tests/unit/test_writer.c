/* The writers (formats/writer.c, write_*.c): one table of three rows in
 * every format, as a reader of each expects it: the terminal's columns and
 * free text last, CSV's header and quoting, JSON's types, and the
 * documents' escapes (a pipe in Markdown, a tag in HTML). */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "formats/writer.h"

static const rs_column cols[] = {
    {"step", NULL, RS_CELL_INT, 4, RS_COL_RIGHT}, {"id", "name", RS_CELL_TEXT, 8, 0},
    {"idea", NULL, RS_CELL_TEXT, 0, RS_COL_FREE}, {"ok", NULL, RS_CELL_BOOL, 0, RS_COL_DATA_ONLY},
    {"ms", NULL, RS_CELL_NUM, 6, RS_COL_RIGHT},   {"note", NULL, RS_CELL_TEXT, 0, RS_COL_JSON_ONLY},
};
#define NC (int)(sizeof cols / sizeof cols[0])

/* The table written in fmt, as text (malloc'd). */
static char *written(rs_format fmt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    rs_writer w;
    rs_writer_begin(&w, f, fmt, "Three <rows>", cols, NC);
    const rs_cell rows[3][NC] = {
        {{.i = 1},
         {.text = "a|b"},
         {.text = "x < y, \"q\""},
         {.i = 1},
         {.num = 0.5},
         {.text = "n"}},
        {{.i = 2}, {.text = "c"}, {.text = "plain"}, {.i = 0}, {.num = 12.25}, {.text = ""}},
        {{.i = 10}, {.text = "d"}, {.text = ""}, {.i = 1}, {.num = 1e-7}, {.text = "m"}},
    };
    for (int r = 0; r < 3; r++) rs_writer_row(&w, rows[r]);
    rs_writer_end(&w);
    fclose(f);
    return buf;
}

/* A document of prose, a report and a JSON member around a table: each
 * format shows what it holds. */
static char *doc_in(rs_format fmt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    rs_writer w;
    rs_writer_open(&w, f, fmt, "Doc");
    rs_writer_say(&w, "said %d", 1);
    if (rs_writer_people(&w)) /* else the stream is the data's own output */
        fputs("a <report>\n```\n", rs_writer_stream(&w));
    else
        CHECK(rs_writer_stream(&w) == f && rs_writer_text_format(&w) == fmt);
    rs_writer_json(&w, "meta", cJSON_CreateNumber(7));
    rs_writer_table(&w, cols, 2, "rows_here");
    rs_writer_row(&w, (const rs_cell[]){{.i = 3}, {.text = "x", .shown = "X"}});
    rs_writer_close(&w);
    fclose(f);
    return buf;
}

static void document(void)
{
    char *t = doc_in(RS_FMT_TABLE);
    CHECK_STR_EQ(t, "said 1\na <report>\n```\nstep  name    \n   3  X       \n");
    char *m = doc_in(RS_FMT_MD);
    CHECK_MSG(strstr(m, "said 1\n\n````text\na <report>\n```\n````\n\n| step | name |") != NULL,
              "%s", m);
    char *h = doc_in(RS_FMT_HTML);
    CHECK_MSG(strstr(h, "<p>said 1</p>\n<pre>a &lt;report&gt;\n```\n</pre>\n<table>") != NULL, "%s",
              h);
    char *c = doc_in(RS_FMT_CSV);
    CHECK_STR_EQ(c, "step,id\n3,x\n");
    char *j = doc_in(RS_FMT_JSON);
    cJSON *o = cJSON_Parse(j);
    CHECK(cJSON_GetObjectItem(o, "meta") && cJSON_GetObjectItem(o, "meta")->valueint == 7);
    const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(o, "rows_here"), 0);
    CHECK(r && strcmp(cJSON_GetObjectItem(r, "id")->valuestring, "x") == 0);
    CHECK(strstr(j, "said") == NULL && strstr(j, "report") == NULL);
    cJSON_Delete(o);
    free(t), free(m), free(h), free(c), free(j);
}

int main(void)
{
    char *t = written(RS_FMT_TABLE);
    CHECK_STR_EQ(t, "step  name          ms  idea\n"
                    "   1  a|b          0.5  x < y, \"q\"\n"
                    "   2  c          12.25  plain\n"
                    "  10  d          1e-07  \n");
    char *c = written(RS_FMT_CSV);
    CHECK_STR_EQ(c, "step,id,idea,ok,ms\n"
                    "1,a|b,\"x < y, \"\"q\"\"\",yes,0.5\n"
                    "2,c,\"plain\",no,12.25\n"
                    "10,d,\"\",yes,1e-07\n");
    char *j = written(RS_FMT_JSON);
    cJSON *arr = cJSON_Parse(j);
    CHECK(cJSON_GetArraySize(arr) == 3);
    const cJSON *first = cJSON_GetArrayItem(arr, 0);
    CHECK(cJSON_IsNumber(cJSON_GetObjectItem(first, "step")));
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(first, "ok")));
    CHECK(cJSON_GetObjectItem(first, "ms")->valuedouble == 0.5);
    CHECK_STR_EQ(cJSON_GetObjectItem(first, "idea")->valuestring, "x < y, \"q\"");
    CHECK_STR_EQ(cJSON_GetObjectItem(first, "note")->valuestring, "n");
    cJSON_Delete(arr);
    char *m = written(RS_FMT_MD);
    CHECK(strstr(m, "# Three \\<rows\\>\n") != NULL);
    CHECK(strstr(m, "| step | name | ms | idea |\n|--:|---|--:|---|\n") != NULL);
    CHECK_MSG(strstr(m, "| 1 | a\\|b | 0.5 | x \\< y, \"q\" |\n") != NULL, "%s", m);
    char *h = written(RS_FMT_HTML);
    CHECK(strstr(h, "<h1>Three &lt;rows&gt;</h1>") != NULL);
    CHECK_MSG(strstr(h, "<td>x &lt; y, \"q\"</td>") != NULL, "%s", h);
    CHECK(strstr(h, "ok") == NULL && strstr(h, "</table>\n</body>\n</html>\n") != NULL);
    for (int k = 0; k < RS_FMT_COUNT; k++) {
        CHECK(rs_writers[k] && rs_format_from_name(rs_writers[k]->name) == k);
        /* every writer, found by the build, shows the rows */
        char *any = written((rs_format)k);
        CHECK_MSG(strstr(any, "plain") && strstr(any, "12.25"), "%s: %s", rs_writers[k]->name, any);
        free(any);
        /* a report in text: the table's text where people read it, CSV and
         * JSON as themselves, no other */
        const rs_format text = rs_format_text((rs_format)k);
        CHECK(rs_writers[k]->people
                  ? text == RS_FMT_TABLE
                  : text == (k == RS_FMT_CSV || k == RS_FMT_JSON ? (rs_format)k : RS_FMT_COUNT));
    }
    CHECK(rs_format_text(RS_FMT_COUNT) == RS_FMT_COUNT &&
          rs_format_text((rs_format)-1) == RS_FMT_COUNT);
    CHECK(rs_format_from_name("xml") == -1 && rs_format_from_name(NULL) == -1);
    CHECK_STR_EQ(rs_format_names(), "table, csv, json, md or html");
    free(t), free(c), free(j), free(m), free(h);
    document();
    return check_report("test_writer");
}
