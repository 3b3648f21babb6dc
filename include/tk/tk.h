/* tk/tk.h: the whole tk library (include this, or the headers you need).
 * Target facts: target.h; element types: types.h; global tensors and buffer
 * descriptors: global.h; LDS tiles: shared.h; register fragments: register.h;
 * MFMA: mma.h; and (by lib2) loads.h, stores.h, sync.h, grid.h when present. */
#ifndef TK_TK_H
#define TK_TK_H
#include "target.h"
#include "types.h"
#include "global.h"
#include "shared.h"
#include "register.h"
#include "mma.h"
#if __has_include("loads.h")
#include "loads.h"
#endif
#if __has_include("stores.h")
#include "stores.h"
#endif
#if __has_include("sync.h")
#include "sync.h"
#endif
#if __has_include("grid.h")
#include "grid.h"
#endif
#endif
