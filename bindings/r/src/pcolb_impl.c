/* The shared binding glue (bindings/common/pcolb.c), compiled into the
 * package; configure puts bindings/common on the include path. */
#include "pcolb.c"
