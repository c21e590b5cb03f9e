/* schema.c — the stored tables and their columns (spec.md §5 is the same list). */
#include "pcol.h"
#include "schema.h"   /* pcol_type_width */
#include <string.h>

#define NA PCOL_NA_I64
#define U8 PCOL_TYPE_U8
#define U32 PCOL_TYPE_U32
#define I64 PCOL_TYPE_I64
#define U64 PCOL_TYPE_U64
#define F64 PCOL_TYPE_F64
#define BYTES PCOL_TYPE_BYTES
/* bit pattern of double NaN, the default of absent f64 columns */
#define F64_NAN ((int64_t)0x7ff8000000000000LL)

/*            id name            type  offs str ref_table            default */
static const pcol_column_info c_strings[] = {
    {1, "offsets", U64, 1, 0, 0, 0},
    {2, "bytes", BYTES, 0, 0, 0, 0},
};
static const pcol_column_info c_meta[] = {
    {1, "key", U32, 0, 1, 0, 0},
    {2, "value", U32, 0, 1, 0, 0},
    {3, "source_id", U32, 0, 0, PCOL_T_SOURCES, 0},
};
static const pcol_column_info c_sources[] = {
    {1, "source_type", U32, 0, 1, 0, 0},
    {2, "source_uri", U32, 0, 1, 0, 0},
    {3, "source_timestamp", I64, 0, 0, 0, NA},
};
static const pcol_column_info c_value_types[] = {
    {1, "type", U32, 0, 1, 0, 0},
    {2, "unit", U32, 0, 1, 0, 0},
};
static const pcol_column_info c_svt[] = {
    {1, "source_id", U32, 0, 0, PCOL_T_SOURCES, 0},
    {2, "value_type_id", U32, 0, 0, PCOL_T_VALUE_TYPES, 0},
    {3, "total", I64, 0, 0, 0, 0}, /* format 1.3: with source_summary (§6.10) */
    {4, "rows", U64, 0, 0, 0, 0},
};
static const pcol_column_info c_functions[] = {
    {1, "name", U32, 0, 1, 0, 0},
    {2, "system_name", U32, 0, 1, 0, 0},
    {3, "filename", U32, 0, 1, 0, 0},
    {4, "start_line", I64, 0, 0, 0, NA},
};
static const pcol_column_info c_mappings[] = {
    {1, "memory_start", U64, 0, 0, 0, 0},
    {2, "memory_limit", U64, 0, 0, 0, 0},
    {3, "file_offset", U64, 0, 0, 0, 0},
    {4, "filename", U32, 0, 1, 0, 0},
    {5, "build_id", U32, 0, 1, 0, 0},
    {6, "flags", U8, 0, 0, 0, 0},
};
static const pcol_column_info c_locations[] = {
    {1, "mapping_id", U32, 0, 0, PCOL_T_MAPPINGS, 0},
    {2, "address", U64, 0, 0, 0, 0},
    {3, "flags", U8, 0, 0, 0, 0},
    {4, "line_offsets", U64, 1, 0, 0, 0},
};
static const pcol_column_info c_lines[] = {
    {1, "function_id", U32, 0, 0, PCOL_T_FUNCTIONS, 0},
    {2, "line", I64, 0, 0, 0, NA},
    {3, "column", I64, 0, 0, 0, NA},
};
static const pcol_column_info c_stacks[] = {
    {1, "parent_id", U32, 0, 0, PCOL_T_STACKS, 0},
    {2, "location_id", U32, 0, 0, PCOL_T_LOCATIONS, 0},
};
static const pcol_column_info c_samples[] = {
    {1, "source_id", U32, 0, 0, PCOL_T_SOURCES, 1},
    {2, "time_ns", I64, 0, 0, 0, NA},
    {3, "duration_ns", I64, 0, 0, 0, 0},
    {4, "weight", I64, 0, 0, 0, 1},
    {5, "cpu_delta_ns", I64, 0, 0, 0, NA},
    {6, "stack_id", U32, 0, 0, PCOL_T_STACKS, 0},
    {7, "labelset_id", U32, 0, 0, PCOL_T_LABELSETS, 0},
    {8, "value_offsets", U64, 1, 0, 0, 0},
};
static const pcol_column_info c_values[] = {
    {1, "value_type_id", U32, 0, 0, PCOL_T_VALUE_TYPES, 0},
    {2, "value", I64, 0, 0, 0, 0},
};
static const pcol_column_info c_labelsets[] = {
    {1, "label_offsets", U64, 1, 0, 0, 0},
};
static const pcol_column_info c_labels[] = {
    {1, "key", U32, 0, 1, 0, 0},
    {2, "str", U32, 0, 1, 0, 0},
    {3, "num", I64, 0, 0, 0, 0},
    {4, "num_unit", U32, 0, 1, 0, 0},
};
static const pcol_column_info c_text_lines[] = {
    {1, "source_id", U32, 0, 0, PCOL_T_SOURCES, 0},
    {2, "before_sample", U64, 0, 0, 0, 0},
    {3, "text", U32, 0, 1, 0, 0},
};
static const pcol_column_info c_sample_text[] = {
    {1, "sample_id", U32, 0, 0, PCOL_T_SAMPLES, 0},
    {2, "text", U32, 0, 1, 0, 0},
};
static const pcol_column_info c_models[] = {
    {1, "source_id", U32, 0, 0, PCOL_T_SOURCES, 0},
    {2, "uid", U32, 0, 1, 0, 0},
    {3, "model", U32, 0, 1, 0, 0},
    {4, "method", U32, 0, 1, 0, 0},
    {5, "r_square", F64, 0, 0, 0, F64_NAN},
    {6, "x_start", F64, 0, 0, 0, F64_NAN},
    {7, "x_end", F64, 0, 0, 0, F64_NAN},
    {8, "coeffs", U32, 0, 1, 0, 0},
};

/* format 1.3 (spec.md §6.10): row s - 1 sums up the samples of source s */
static const pcol_column_info c_source_summary[] = {
    {1, "rows", U64, 0, 0, 0, 0},
    {2, "weight", I64, 0, 0, 0, 0},
    {3, "time_first", I64, 0, 0, 0, NA},
    {4, "time_last", I64, 0, 0, 0, NA},
    {5, "time_end", I64, 0, 0, 0, NA},
    {6, "untimed", U64, 0, 0, 0, 0},
};

#define T(id, name, cols, child) {id, name, (int)(sizeof cols / sizeof cols[0]), cols, child}
static const pcol_table_info tables[PCOL_T_COUNT_] = {
    {0, NULL, 0, NULL, 0},
    T(PCOL_T_STRINGS, "strings", c_strings, 0),
    T(PCOL_T_META, "meta", c_meta, 0),
    T(PCOL_T_SOURCES, "sources", c_sources, 0),
    T(PCOL_T_VALUE_TYPES, "value_types", c_value_types, 0),
    T(PCOL_T_SOURCE_VALUE_TYPES, "source_value_types", c_svt, 0),
    T(PCOL_T_FUNCTIONS, "functions", c_functions, 0),
    T(PCOL_T_MAPPINGS, "mappings", c_mappings, 0),
    T(PCOL_T_LOCATIONS, "locations_stored", c_locations, PCOL_T_LINES),
    T(PCOL_T_LINES, "lines", c_lines, 0),
    T(PCOL_T_STACKS, "stacks", c_stacks, 0),
    T(PCOL_T_SAMPLES, "samples_stored", c_samples, PCOL_T_VALUES),
    T(PCOL_T_VALUES, "values", c_values, 0),
    T(PCOL_T_LABELSETS, "labelsets", c_labelsets, PCOL_T_LABELS),
    T(PCOL_T_LABELS, "labels", c_labels, 0),
    T(PCOL_T_TEXT_LINES, "text_lines", c_text_lines, 0),
    T(PCOL_T_SAMPLE_TEXT, "sample_text", c_sample_text, 0),
    T(PCOL_T_MODELS, "models", c_models, 0),
    T(PCOL_T_SOURCE_SUMMARY, "source_summary", c_source_summary, 0),
};

const pcol_table_info *pcol_table_info_get(int table) {
  if (table <= 0 || table >= PCOL_T_COUNT_) return NULL;
  return &tables[table];
}

/* By spec.md §5's name ("samples") or the schema's ("samples_stored", as
 * `pcol info` prints it: the stored tables whose logical view of the same
 * name has more columns). */
const pcol_table_info *pcol_table_info_by_name(const char *name) {
  static const char suffix[] = "_stored";
  size_t n = strlen(name);
  for (int i = 1; i < PCOL_T_COUNT_; i++) {
    const char *t = tables[i].name;
    size_t tn = strlen(t);
    if (strcmp(t, name) == 0) return &tables[i];
    if (tn == n + sizeof suffix - 1 && strcmp(t + n, suffix) == 0 && strncmp(t, name, n) == 0)
      return &tables[i];
  }
  return NULL;
}

const pcol_column_info *pcol_column_info_get(int table, int column) {
  const pcol_table_info *t = pcol_table_info_get(table);
  if (!t || column <= 0 || (size_t)column > t->ncolumns) return NULL;
  return &t->columns[column - 1];
}

size_t pcol_type_width(pcol_type t) {
  switch (t) {
  case PCOL_TYPE_U8: return 1;
  case PCOL_TYPE_U32: return 4;
  case PCOL_TYPE_I64:
  case PCOL_TYPE_U64:
  case PCOL_TYPE_F64: return 8;
  case PCOL_TYPE_BYTES: return 1;
  }
  return 0;
}
