/* The binding glue shared with the Python package (bindings/common/pcolb.c
 * in the pcol repository), compiled into the package from where `make
 * install` put it (<prefix>/share/pcol/bindings; configure finds it). */
#include "pcolb.c"
