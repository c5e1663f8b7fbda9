/*
 * patterm's native addon, for what Node cannot do itself:
 * - make the process a child subreaper, so a pane's process that leaves its
 *   session (setsid, a double fork) is re-parented to patterm instead of init,
 *   and reap such adopted children one pid at a time (orphan-adoption.ts);
 * - tune glibc's allocator and hand freed memory back to the system
 *   (allocator.ts): ended pane threads leave it in malloc's arenas otherwise;
 * - ask V8 to give memory back (v8-memory-pressure.cc, the addon's C++ part).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <node_api.h>

static napi_value throw_errno(napi_env env, const char *what) {
  char message[160];
  snprintf(message, sizeof message, "%s: %s", what, strerror(errno));
  napi_throw_error(env, NULL, message);
  return NULL;
}

static napi_value boolean(napi_env env, int value) {
  napi_value result;
  napi_get_boolean(env, value != 0, &result);
  return result;
}

/* The call's one argument as a positive int32; 0 with a TypeError thrown when it is not one. */
static int32_t positive_arg(napi_env env, napi_callback_info info, const char *usage) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  int32_t value = 0;
  if (argc < 1 || napi_get_value_int32(env, argv[0], &value) != napi_ok || value <= 0) {
    napi_throw_type_error(env, NULL, usage);
    return 0;
  }
  return value;
}

/* becomeSubreaper(): true once PR_SET_CHILD_SUBREAPER is set; throws with errno's text. */
static napi_value become_subreaper(napi_env env, napi_callback_info info) {
  (void)info;
  if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) return throw_errno(env, "prctl(PR_SET_CHILD_SUBREAPER)");
  return boolean(env, 1);
}

/* isSubreaper(): whether PR_SET_CHILD_SUBREAPER is set on this process. */
static napi_value is_subreaper(napi_env env, napi_callback_info info) {
  (void)info;
  int flag = 0;
  if (prctl(PR_GET_CHILD_SUBREAPER, (unsigned long)&flag, 0, 0, 0) != 0) return throw_errno(env, "prctl(PR_GET_CHILD_SUBREAPER)");
  return boolean(env, flag);
}

/*
 * reapIfExited(pid): true if `pid`, a child of the calling thread, had exited and is now reaped;
 * false if it still runs or is not this thread's child. __WNOTHREAD keeps it off the children of
 * other threads: the PTY host thread's pane processes are waited for by node-pty alone.
 */
static napi_value reap_if_exited(napi_env env, napi_callback_info info) {
  int32_t pid = positive_arg(env, info, "reapIfExited needs a positive pid");
  if (pid == 0) return NULL;
  int status = 0;
  pid_t reaped;
  do reaped = waitpid((pid_t)pid, &status, WNOHANG | __WNOTHREAD);
  while (reaped < 0 && errno == EINTR);
  return boolean(env, reaped == (pid_t)pid);
}

/*
 * tuneAllocator(mmapThresholdBytes): fixes glibc's mmap threshold, so blocks that large are
 * mmapped and unmapped when freed. Left dynamic, it climbs after the first large free
 * and such blocks stay in the arenas for good.
 */
static napi_value tune_allocator(napi_env env, napi_callback_info info) {
  int32_t threshold = positive_arg(env, info, "tuneAllocator needs a positive mmap threshold in bytes");
  if (threshold == 0) return NULL;
  return boolean(env, mallopt(M_MMAP_THRESHOLD, threshold) == 1);
}

/* trimAllocator(): malloc_trim(0), which returns the free pages of every arena; true if any were. */
static napi_value trim_allocator(napi_env env, napi_callback_info info) {
  (void)info;
  return boolean(env, malloc_trim(0) == 1);
}

void patterm_notify_memory_pressure(void);

/* notifyMemoryPressure(): the calling thread's isolate starts a collection that shrinks its heap. */
static napi_value notify_memory_pressure(napi_env env, napi_callback_info info) {
  (void)info;
  patterm_notify_memory_pressure();
  napi_value result;
  napi_get_undefined(env, &result);
  return result;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor methods[] = {
    { "becomeSubreaper", NULL, become_subreaper, NULL, NULL, NULL, napi_default, NULL },
    { "isSubreaper", NULL, is_subreaper, NULL, NULL, NULL, napi_default, NULL },
    { "reapIfExited", NULL, reap_if_exited, NULL, NULL, NULL, napi_default, NULL },
    { "tuneAllocator", NULL, tune_allocator, NULL, NULL, NULL, napi_default, NULL },
    { "trimAllocator", NULL, trim_allocator, NULL, NULL, NULL, napi_default, NULL },
    { "notifyMemoryPressure", NULL, notify_memory_pressure, NULL, NULL, NULL, napi_default, NULL },
  };
  napi_define_properties(env, exports, sizeof methods / sizeof methods[0], methods);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
