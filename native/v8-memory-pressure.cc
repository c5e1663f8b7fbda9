/*
 * The one part of patterm's native addon that needs V8's C++ API (Node-API
 * has no call for it): telling the calling thread's isolate that memory is
 * wanted back. V8 then runs an incremental collection that reduces its
 * footprint, which is what shrinks a young generation grown by a burst of
 * spawns; its own heuristics leave it grown for as long as the isolate is quiet.
 */
#include <v8.h>

extern "C" void patterm_notify_memory_pressure(void) {
  v8::Isolate *isolate = v8::Isolate::GetCurrent();
  // Moderate, not critical: a critical notice collects synchronously and stalls the caller's event loop.
  if (isolate != nullptr) isolate->MemoryPressureNotification(v8::MemoryPressureLevel::kModerate);
}
