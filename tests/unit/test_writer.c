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
static char *written(rs_out_format fmt)
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

int main(void)
{
    char *t = written(RS_OUT_TABLE);
    CHECK_STR_EQ(t, "step  name          ms  idea\n"
                    "   1  a|b          0.5  x < y, \"q\"\n"
                    "   2  c          12.25  plain\n"
                    "  10  d          1e-07  \n");
    char *c = written(RS_OUT_CSV);
    CHECK_STR_EQ(c, "step,id,idea,ok,ms\n"
                    "1,a|b,\"x < y, \"\"q\"\"\",yes,0.5\n"
                    "2,c,\"plain\",no,12.25\n"
                    "10,d,\"\",yes,1e-07\n");
    char *j = written(RS_OUT_JSON);
    cJSON *arr = cJSON_Parse(j);
    CHECK(cJSON_GetArraySize(arr) == 3);
    const cJSON *first = cJSON_GetArrayItem(arr, 0);
    CHECK(cJSON_IsNumber(cJSON_GetObjectItem(first, "step")));
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(first, "ok")));
    CHECK(cJSON_GetObjectItem(first, "ms")->valuedouble == 0.5);
    CHECK_STR_EQ(cJSON_GetObjectItem(first, "idea")->valuestring, "x < y, \"q\"");
    CHECK_STR_EQ(cJSON_GetObjectItem(first, "note")->valuestring, "n");
    cJSON_Delete(arr);
    char *m = written(RS_OUT_MD);
    CHECK(strstr(m, "# Three \\<rows\\>\n") != NULL);
    CHECK(strstr(m, "| step | name | ms | idea |\n|--:|---|--:|---|\n") != NULL);
    CHECK_MSG(strstr(m, "| 1 | a\\|b | 0.5 | x \\< y, \"q\" |\n") != NULL, "%s", m);
    char *h = written(RS_OUT_HTML);
    CHECK(strstr(h, "<h1>Three &lt;rows&gt;</h1>") != NULL);
    CHECK_MSG(strstr(h, "<td>x &lt; y, \"q\"</td>") != NULL, "%s", h);
    CHECK(strstr(h, "ok") == NULL && strstr(h, "</table>\n</body></html>\n") != NULL);
    CHECK(rs_out_format_of(RS_FMT_CSV, 0) == RS_OUT_CSV &&
          rs_out_format_of(RS_FMT_TABLE, 2) == RS_OUT_HTML);
    for (int k = 0; k < RS_OUT_COUNT; k++) CHECK(rs_writers[k] && rs_writers[k]->name);
    free(t), free(c), free(j), free(m), free(h);
    return check_report("test_writer");
}
