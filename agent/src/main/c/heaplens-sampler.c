/*
 * HeapLens: the sampled mode fed by HotSpot's own heap sampler (JEP 331, JDK 11+), agent option sampler=jvmti.
 *
 * HotSpot puts sample points on each thread's allocated bytes at random intervals of mean K
 * (SetHeapSamplingInterval) and reports the object that holds a point through the JVMTI event SampledObjectAlloc,
 * on the allocating thread. Only native code can ask for that event, so this library is the whole native part:
 * it hands every event to the Java method io.heaplens.runtime.HeapSampler.sample(Object, long, int, long), which weighs
 * and records it (docs/modes.md "sampler=jvmti"). It is loaded with System.load by HeapSampler itself, in the live
 * phase, so the natives below bind to that class (the bootstrap loader's).
 *
 * Built by scripts/build.mjs: gcc -shared -fPIC -O2 -I$JAVA_HOME/include -I$JAVA_HOME/include/linux.
 */
#include <jni.h>
#include <jvmti.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Frames of a sample's calling trace, as the probe sampler's stack walk keeps (runtime/Sampler.MAX_FRAMES). */
#define MAX_FRAMES 1024

static jvmtiEnv *jvmti;
static jclass samplerClass;      /* a global reference: the class must stay reachable for the callback */
static jmethodID sampleMethod;

/*
 * Per thread, the trace GetStackTrace filled last (16 KiB: not on the stack of a thread that may be deep already).
 * The upcall is told only its length; Java then asks for the frames it lacks with fill(), into a buffer of its own
 * that it keeps from sample to sample (no fresh long[] per sample: ~0.5 KiB of garbage each at checkstyle's 34 frames;
 * and the frames the previous sample shares need not cross at all).
 */
typedef struct {
    jint n;
    jvmtiFrameInfo frames[MAX_FRAMES];
} Trace;
static pthread_key_t traceKey;

/*
 * Set while this thread runs the Java upcall. HotSpot can report an allocation the upcall itself makes (the stack
 * walk allocates) in a nested event; that allocation is the profiler's, not the program's, and a nested upcall
 * could re-enter the thread's state before it is set up. So nested events return at once.
 */
static __thread int inUpcall;

/*
 * Whether samples are wanted (the sampled mode). The event itself stays on from the start: HotSpot places a thread's
 * next sample point only at an allocation slow path, so an event turned on later misses each thread's allocations
 * until its TLAB is next refilled (JDK 17: 39,000 of a phase's 50,000 objects in the e2e switch test). While no sample
 * is wanted the callback returns here, before any Java code or stack walk.
 */
static volatile int active;
static int eventOn;

/*
 * The interval K: the agent may raise it while the program takes samples fast (agent/jvmti/SampleRate, the rate budget),
 * so each sample must be weighed with the K HotSpot used when it drew the distance to it. HotSpot (JDK 17's
 * threadHeapSampler.cpp and memAllocator.cpp) draws a thread's next distance in check_for_sampling, right after it
 * decides to sample and before the event is posted (the allocation's event collector posts it when it goes out of
 * scope), with the global interval of that moment. So the K read in a thread's previous event is the one its present
 * sample was drawn with, and the K read now is the one for its next. A thread's first distance is drawn when the
 * thread is created (ThreadHeapSampler's constructor); not knowing when that was, its first sample takes the K in
 * effect now (exact unless K changed between the thread's start and its first sample; docs/modes.md).
 */
static volatile jint currentK = 512 * 1024;   /* HotSpot's default until the agent sets its own */
static __thread jint drawnK;                  /* 0: this thread has had no event yet */
/* Events since the start, all threads, whether kept or not: what the agent's rate budget counts. */
static volatile jlong events;

/*
 * The calling trace is taken here, with JVMTI's GetStackTrace (method ids and bytecode indexes, nothing allocated in
 * the Java heap), and kept for the upcall to fetch. A Java StackWalker walk in the upcall cost ~40 µs a sample on h2,
 * most of it building and resolving frame objects (docs/benchmark.md "Issue 18, round 5").
 */
static void JNICALL onSampledObjectAlloc(jvmtiEnv *env, JNIEnv *jni, jthread thread, jobject object, jclass klass, jlong size) {
    (void) thread; (void) klass;
    /* Every event, even one dropped below, means HotSpot has drawn this thread's next distance with the K of now. */
    jint now = currentK;
    jint k = drawnK != 0 ? drawnK : now;
    drawnK = now;
    __atomic_fetch_add(&events, 1, __ATOMIC_RELAXED);
    if (!active || inUpcall || sampleMethod == NULL) return;
    inUpcall = 1;
    Trace *t = pthread_getspecific(traceKey);
    if (t == NULL) {
        t = malloc(sizeof(Trace));
        if (t != NULL) pthread_setspecific(traceKey, t);
    }
    jint n = 0;
    if (t == NULL || (*env)->GetStackTrace(env, NULL, 0, MAX_FRAMES, t->frames, &n) != JVMTI_ERROR_NONE) n = 0;
    if (t != NULL) t->n = n;
    (*jni)->CallStaticVoidMethod(jni, samplerClass, sampleMethod, object, size, n, (jlong) k);
    /* The program's allocation must never fail because of the profiler: drop anything the upcall threw. */
    if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
    inUpcall = 0;
}

/*
 * During the upcall: this thread's trace into {@code trail}, (method id, bytecode index) pairs, outermost frame
 * first. {@code had}: the frames the trail holds from this Java thread's previous sample; those the new trace shares
 * from the outer end (same method and index) are left as they are. Returns how many it shared, -1 when there is no
 * trace or the trail is too short (it must hold 2 n longs).
 */
JNIEXPORT jint JNICALL Java_io_heaplens_runtime_HeapSampler_fill(JNIEnv *jni, jclass cls, jlongArray trail, jint had) {
    (void) cls;
    Trace *t = pthread_getspecific(traceKey);
    if (t == NULL || trail == NULL || (*jni)->GetArrayLength(jni, trail) < 2 * t->n) return -1;
    jlong *p = (*jni)->GetPrimitiveArrayCritical(jni, trail, NULL);
    if (p == NULL) return -1;
    jint n = t->n, d = 0;
    const jvmtiFrameInfo *f = t->frames;
    while (d < had && d < n && p[2 * d] == (jlong) (intptr_t) f[n - 1 - d].method && p[2 * d + 1] == (jlong) f[n - 1 - d].location) d++;
    for (jint e = d; e < n; e++) {
        p[2 * e] = (jlong) (intptr_t) f[n - 1 - e].method;
        p[2 * e + 1] = (jlong) f[n - 1 - e].location;
    }
    (*jni)->ReleasePrimitiveArrayCritical(jni, trail, p, 0);
    return d;
}

/*
 * Returns 0, or why not: -1 no JVMTI environment of version 11 (a JVM without JEP 331), else a JVMTI error code
 * (e.g. 99 JVMTI_ERROR_NOT_AVAILABLE: the JVM cannot sample its heap).
 */
JNIEXPORT jint JNICALL Java_io_heaplens_runtime_HeapSampler_init(JNIEnv *jni, jclass cls) {
    JavaVM *vm;
    if ((*jni)->GetJavaVM(jni, &vm) != 0) return -1;
    /* An environment of its own: capabilities and callbacks are per environment, so other agents are not touched. */
    if ((*vm)->GetEnv(vm, (void **) &jvmti, JVMTI_VERSION_11) != JNI_OK) return -1;
    /* The one capability the event needs; HotSpot grants it in the live phase (it is "always" potential). */
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    caps.can_generate_sampled_object_alloc_events = 1;
    jvmtiError e = (*jvmti)->AddCapabilities(jvmti, &caps);
    if (e != JVMTI_ERROR_NONE) return (jint) e;
    /* Line numbers for the frames (the record's line, the site's line); without them the lines stay unknown. */
    memset(&caps, 0, sizeof caps);
    caps.can_get_line_numbers = 1;
    (*jvmti)->AddCapabilities(jvmti, &caps);
    if (pthread_key_create(&traceKey, free) != 0) return -3;
    samplerClass = (jclass) (*jni)->NewGlobalRef(jni, cls);
    sampleMethod = (*jni)->GetStaticMethodID(jni, cls, "sample", "(Ljava/lang/Object;JIJ)V");
    if (samplerClass == NULL || sampleMethod == NULL) {
        if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
        return -2;
    }
    jvmtiEventCallbacks callbacks;
    memset(&callbacks, 0, sizeof callbacks);
    callbacks.SampledObjectAlloc = &onSampledObjectAlloc;
    return (jint) (*jvmti)->SetEventCallbacks(jvmti, &callbacks, (jint) sizeof callbacks);
}

/*
 * The mean distance K between sample points, in bytes, for every thread (HotSpot keeps one global interval). Kept
 * here first: an event between the two stores then reads the new K a few microseconds before HotSpot draws with it,
 * the other order would leave it reading the old one; either way only the samples of that instant are concerned.
 */
JNIEXPORT jint JNICALL Java_io_heaplens_runtime_HeapSampler_interval(JNIEnv *jni, jclass cls, jint bytes) {
    (void) jni; (void) cls;
    if (jvmti == NULL) return -1;
    jint old = currentK;
    currentK = bytes;
    jvmtiError e = (*jvmti)->SetHeapSamplingInterval(jvmti, bytes);
    if (e != JVMTI_ERROR_NONE) currentK = old;
    return (jint) e;
}

/* HotSpot's sample events so far (all threads, kept or dropped). */
JNIEXPORT jlong JNICALL Java_io_heaplens_runtime_HeapSampler_events(JNIEnv *jni, jclass cls) {
    (void) jni; (void) cls;
    return __atomic_load_n(&events, __ATOMIC_RELAXED);
}

/*
 * Samples wanted (the sampled mode) or not. The first call turns the event on for all threads, and it stays on; the
 * other modes then pay one allocation slow path and an event that returns at once per K bytes on average.
 */
JNIEXPORT jint JNICALL Java_io_heaplens_runtime_HeapSampler_enable(JNIEnv *jni, jclass cls, jboolean on) {
    (void) jni; (void) cls;
    if (jvmti == NULL) return -1;
    if (!eventOn) {
        jvmtiError e = (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, NULL);
        if (e != JVMTI_ERROR_NONE) return (jint) e;
        eventOn = 1;
    }
    active = on ? 1 : 0;
    return 0;
}

/*
 * A frame's method: its declaring class, name and descriptor, and its line number table as (bytecode index, line)
 * pairs (empty without one). HotSpot never reuses a method id, so the Java side resolves each once.
 */
JNIEXPORT jobjectArray JNICALL Java_io_heaplens_runtime_HeapSampler_method(JNIEnv *jni, jclass cls, jlong id) {
    (void) cls;
    if (jvmti == NULL) return NULL;
    jmethodID m = (jmethodID) (intptr_t) id;
    jclass holder = NULL;
    char *name = NULL, *sig = NULL;
    if ((*jvmti)->GetMethodDeclaringClass(jvmti, m, &holder) != JVMTI_ERROR_NONE) return NULL;
    if ((*jvmti)->GetMethodName(jvmti, m, &name, &sig, NULL) != JVMTI_ERROR_NONE) return NULL;
    jclass objectClass = (*jni)->FindClass(jni, "java/lang/Object");
    jobjectArray out = objectClass == NULL ? NULL : (*jni)->NewObjectArray(jni, 4, objectClass, NULL);
    if (out != NULL) {
        (*jni)->SetObjectArrayElement(jni, out, 0, holder);
        (*jni)->SetObjectArrayElement(jni, out, 1, (*jni)->NewStringUTF(jni, name));
        (*jni)->SetObjectArrayElement(jni, out, 2, (*jni)->NewStringUTF(jni, sig));
        jint count = 0;
        jvmtiLineNumberEntry *table = NULL;
        if ((*jvmti)->GetLineNumberTable(jvmti, m, &count, &table) != JVMTI_ERROR_NONE) count = 0;
        jintArray lines = (*jni)->NewIntArray(jni, 2 * count);
        if (lines != NULL) {
            for (jint i = 0; i < count; i++) {
                jint pair[2] = {(jint) table[i].start_location, table[i].line_number};
                (*jni)->SetIntArrayRegion(jni, lines, 2 * i, 2, pair);
            }
            (*jni)->SetObjectArrayElement(jni, out, 3, lines);
        }
        if (table != NULL) (*jvmti)->Deallocate(jvmti, (unsigned char *) table);
    }
    (*jvmti)->Deallocate(jvmti, (unsigned char *) name);
    (*jvmti)->Deallocate(jvmti, (unsigned char *) sig);
    return out;
}
