/* The binding glue shared with the R package (bindings/common/pcolb.c in
 * the pcol repository), compiled into the extension from where `make
 * install` put it (<prefix>/share/pcol/bindings; setup.py finds it). */
#include "pcolb.c"
