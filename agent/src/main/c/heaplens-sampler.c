/*
 * HeapLens: the sampled mode fed by HotSpot's own heap sampler (JEP 331, JDK 11+), agent option sampler=jvmti.
 *
 * HotSpot puts sample points on each thread's allocated bytes at random intervals of mean K
 * (SetHeapSamplingInterval) and reports the object that holds a point through the JVMTI event SampledObjectAlloc,
 * on the allocating thread. Only native code can ask for that event, so this library is the whole native part:
 * it hands every event to the Java method io.heaplens.runtime.HeapSampler.sample(Object, long), which weighs and
 * records it (docs/modes.md "sampler=jvmti"). It is loaded with System.load by HeapSampler itself, in the live
 * phase, so the natives below bind to that class (the bootstrap loader's).
 *
 * Built by scripts/build.mjs: gcc -shared -fPIC -O2 -I$JAVA_HOME/include -I$JAVA_HOME/include/linux.
 */
#include <jni.h>
#include <jvmti.h>
#include <string.h>

static jvmtiEnv *jvmti;
static jclass samplerClass;      /* a global reference: the class must stay reachable for the callback */
static jmethodID sampleMethod;

/*
 * Set while this thread runs the Java upcall. HotSpot can report an allocation the upcall itself makes (the stack
 * walk allocates) in a nested event; that allocation is the profiler's, not the program's, and a nested upcall
 * could re-enter the thread's state before it is set up. So nested events return at once.
 */
static __thread int inUpcall;

static void JNICALL onSampledObjectAlloc(jvmtiEnv *env, JNIEnv *jni, jthread thread, jobject object, jclass klass, jlong size) {
    (void) env; (void) thread; (void) klass;
    if (inUpcall || sampleMethod == NULL) return;
    inUpcall = 1;
    (*jni)->CallStaticVoidMethod(jni, samplerClass, sampleMethod, object, size);
    /* The program's allocation must never fail because of the profiler: drop anything the upcall threw. */
    if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
    inUpcall = 0;
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
    samplerClass = (jclass) (*jni)->NewGlobalRef(jni, cls);
    sampleMethod = (*jni)->GetStaticMethodID(jni, cls, "sample", "(Ljava/lang/Object;J)V");
    if (samplerClass == NULL || sampleMethod == NULL) {
        if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
        return -2;
    }
    jvmtiEventCallbacks callbacks;
    memset(&callbacks, 0, sizeof callbacks);
    callbacks.SampledObjectAlloc = &onSampledObjectAlloc;
    return (jint) (*jvmti)->SetEventCallbacks(jvmti, &callbacks, (jint) sizeof callbacks);
}

/* The mean distance K between sample points, in bytes, for every thread (HotSpot keeps one global interval). */
JNIEXPORT jint JNICALL Java_io_heaplens_runtime_HeapSampler_interval(JNIEnv *jni, jclass cls, jint bytes) {
    (void) jni; (void) cls;
    return jvmti == NULL ? -1 : (jint) (*jvmti)->SetHeapSamplingInterval(jvmti, bytes);
}

/*
 * Turns the event on or off for all threads. While it is off HotSpot leaves each TLAB's end where it is and checks
 * nothing, so the modes other than sampled pay nothing for the sampler.
 */
JNIEXPORT jint JNICALL Java_io_heaplens_runtime_HeapSampler_enable(JNIEnv *jni, jclass cls, jboolean on) {
    (void) jni; (void) cls;
    if (jvmti == NULL) return -1;
    return (jint) (*jvmti)->SetEventNotificationMode(jvmti, on ? JVMTI_ENABLE : JVMTI_DISABLE, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, NULL);
}
