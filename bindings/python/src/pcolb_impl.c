/* The shared binding glue (bindings/common/pcolb.c), compiled into the
 * extension; setup.py puts bindings/common on the include path. */
#include "pcolb.c"
