// Every allocation on the thread "main", as the JVM makes it: JVMTI SampledObjectAlloc with a sampling interval of 0
// reports each one, with its type, its size and the top frames (native ones marked [n]), one line each. The ground
// truth behind docs/reliability.md §2h: which allocations the profile misses, per type and allocating method.
//
//   gcc -O2 -shared -fPIC -I$JAVA_HOME/include -I$JAVA_HOME/include/linux -o /tmp/liballocs.so bench/alloc-trace/allocs.c
//   java -agentpath:/tmp/liballocs.so=/tmp/allocs.txt,4 -Xint … (a plain run: no HeapLens agent)
//   node bench/alloc-trace/compare.mjs /tmp/allocs.txt PROFILE.heaplens   (the same program profiled, -Xint)
#include <jvmti.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
static FILE *out;
static int depth = 4;
static jrawMonitorID lock;

static void JNICALL onAlloc(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject object, jclass klass, jlong size) {
  void *tls = NULL;
  (*jvmti)->GetThreadLocalStorage(jvmti, thread, &tls);
  if (tls == NULL) {
    jvmtiThreadInfo info;
    intptr_t flag = 2;
    if ((*jvmti)->GetThreadInfo(jvmti, thread, &info) == JVMTI_ERROR_NONE && info.name) {
      if (strcmp(info.name, "main") == 0) flag = 1;
      (*jvmti)->Deallocate(jvmti, (unsigned char *) info.name);
    }
    tls = (void *) flag;
    (*jvmti)->SetThreadLocalStorage(jvmti, thread, tls);
  }
  if ((intptr_t) tls != 1) return;
  char *sig = NULL;
  (*jvmti)->GetClassSignature(jvmti, klass, &sig, NULL);
  jvmtiFrameInfo frames[16];
  jint n = 0;
  (*jvmti)->GetStackTrace(jvmti, thread, 0, depth, frames, &n);
  (*jvmti)->RawMonitorEnter(jvmti, lock);
  fprintf(out, "%s\t%ld\t", sig ? sig : "?", (long) size);
  for (int i = 0; i < n; i++) {
    char *mn = NULL; jclass dc; char *cs = NULL;
    (*jvmti)->GetMethodName(jvmti, frames[i].method, &mn, NULL, NULL);
    (*jvmti)->GetMethodDeclaringClass(jvmti, frames[i].method, &dc);
    (*jvmti)->GetClassSignature(jvmti, dc, &cs, NULL);
    jboolean nat = 0; (*jvmti)->IsMethodNative(jvmti, frames[i].method, &nat);
    fprintf(out, "%s.%s%s@%ld;", cs ? cs : "?", mn ? mn : "?", nat ? "[n]" : "", (long) frames[i].location);
    if (mn) (*jvmti)->Deallocate(jvmti, (unsigned char *) mn);
    if (cs) (*jvmti)->Deallocate(jvmti, (unsigned char *) cs);
  }
  fputc('\n', out);
  (*jvmti)->RawMonitorExit(jvmti, lock);
  if (sig) (*jvmti)->Deallocate(jvmti, (unsigned char *) sig);
}

static void JNICALL onDeath(jvmtiEnv *jvmti, JNIEnv *jni) { fflush(out); }

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved) {
  jvmtiEnv *jvmti;
  if ((*vm)->GetEnv(vm, (void **) &jvmti, JVMTI_VERSION_11) != JNI_OK) return 1;
  const char *file = options && *options ? options : "allocs.txt";
  char *comma = options ? strchr(options, ',') : NULL;
  if (comma) { *comma = 0; depth = atoi(comma + 1); }
  out = fopen(file, "w");
  setvbuf(out, NULL, _IOFBF, 1 << 20);
  jvmtiCapabilities caps; memset(&caps, 0, sizeof caps);
  caps.can_generate_sampled_object_alloc_events = 1;
  if ((*jvmti)->AddCapabilities(jvmti, &caps) != JVMTI_ERROR_NONE) return 2;
  jvmtiEventCallbacks cb; memset(&cb, 0, sizeof cb);
  cb.SampledObjectAlloc = onAlloc; cb.VMDeath = onDeath;
  (*jvmti)->SetEventCallbacks(jvmti, &cb, sizeof cb);
  (*jvmti)->CreateRawMonitor(jvmti, "allocs", &lock);
  (*jvmti)->SetHeapSamplingInterval(jvmti, 0);
  (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, NULL);
  (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, NULL);
  return 0;
}
