/* Energy per reduction (rs_energy, result.h): its JSON both ways, its
 * CSV cells, and the words every view uses for it. */
#ifndef RS_ENERGY_H
#define RS_ENERGY_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>

#include "core/error.h"
#include "core/result.h"

/* {"energy_j": ..., "power_w": ..., ...}, or {"energy_note": why} when
 * it was asked for and not measured. */
cJSON *rs_energy_to_json(const rs_energy *en);
/* NULL: not asked for. Every figure checked (type, range) and against the
 * others: joules = watts x rep_ms, J/GB from joules and the input's bytes. */
rs_status rs_energy_from_json(const cJSON *j, double input_bytes, rs_energy *en, rs_error *err);

/* The CSV columns (docs/formats.md), after the counters': the figures,
 * then energy_note; figure i of a measurement (whole: a count). */
#define RS_ENERGY_FIGURES 9
extern const char rs_energy_csv_columns[];
double rs_energy_figure(const rs_energy *en, int i, int *whole);
/* Those cells, each after a comma, of a row that ran or not (csv.c: one
 * writer for run's, ladder's and sweep's CSV). */
void rs_energy_csv(FILE *f, const rs_energy *en, int ran);

/* 8.9 mJ, 412 µJ, 1.20 J ("-": none). */
void rs_fmt_energy(double joules, int utf8, char *buf, size_t len);
/* 0.13, 1.11, 213 (J/GB: two decimals below 100, so a column lines up; "-": none). */
void rs_fmt_j_per_gb(double v, char *buf, size_t len);
/* run's line: "8.9 mJ per reduction, 0.133 J/GB read: 402 W on average
 * over 1.00 s (...)", or "not measured: why". */
void rs_energy_describe(const rs_energy *en, int utf8, char *buf, size_t len);

#endif
