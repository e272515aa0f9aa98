/*
 * shmpi._fast - the per-call work of shmpi.core's hot routines in C (docs/python.md,
 * "The compiled fast path"): binding the arguments, reading the arrays
 * (shmpi.core.Array, __cuda_array_interface__, DLPack, numpy's buffer), the stream
 * handle and the PE, then the call into libshmpi through a function pointer that
 * ctypes resolved once (the same library ctypes loaded: one state).
 *
 * Anything this file does not take as the common case (an argument it cannot read
 * exactly, a check that fails, a routine the library lacks) goes to the Python
 * function of shmpi.core with the same arguments, before anything was called: so
 * errors and their messages are the Python path's, and only the common case is
 * duplicated here.  Nothing is cached per array or stream object: each call re-reads
 * what the object says (its attributes may change); what is cached cannot change
 * unseen: the library's routines, the dtype tables shmpi.core computed, what the last
 * shmpi.core.Arrays' attribute objects said (kept alive, immutable), where a type keeps the
 * attributes read here in slots (checked against the type's version tag), and
 * shmpi.core's state (init, finalize: state()).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#if PY_VERSION_HEX >= 0x030d0000
#define lookup_attr(obj, name, result) PyObject_GetOptionalAttr(obj, name, result)
#else
#define lookup_attr(obj, name, result) _PyObject_LookupAttr(obj, name, result)
#endif
#ifdef Py_T_OBJECT_EX
#define OBJECT_MEMBER Py_T_OBJECT_EX
#else
#include <structmember.h>
#define OBJECT_MEMBER T_OBJECT_EX
#endif
#if PY_VERSION_HEX < 0x03090000
#define PyObject_Vectorcall _PyObject_Vectorcall
#endif

/* The routines served here; their Python functions are the fallbacks. */
enum route {
    R_PUT, R_GET, R_PUT_SIGNAL, R_SIGNAL_OP, R_SIGNAL_WAIT, R_BARRIER_ALL, R_SYNC_ALL,
    R_QUIET, R_BARRIER, R_SYNC, R_REDUCE, R_FCOLLECT, R_COUNT
};
static const char *const route_names[R_COUNT] = {
    "put", "get", "put_signal", "signal_op", "signal_wait", "barrier_all", "sync_all",
    "quiet", "barrier", "sync", "reduce", "fcollect",
};
static PyObject *slow[R_COUNT];

/* Data movement kinds with a routine per dtype (shmpi.core's move_routine). */
enum move_kind { M_PUT, M_GET, M_PUT_SIGNAL, M_FCOLLECT, M_COUNT };
static const char *const move_names[M_COUNT] = { "put", "get", "put_signal", "fcollect" };
enum { MAX_DTYPES = 32, N_OPS = 7 };
static const char *const op_names[N_OPS] = { "sum", "prod", "min", "max", "and", "or", "xor" };

struct routine {
    void *fn;         /* NULL: the library lacks it (the Python path says so) */
    Py_ssize_t elem;  /* bytes per element of its count */
    PyObject *name;   /* for the rc error message */
};

static struct {
    int ready;  /* setup() gave the library's routines */
    int n_dtypes, uint8;
    Py_ssize_t itemsize[MAX_DTYPES];
    struct routine move[M_COUNT][MAX_DTYPES];
    struct routine reduce[MAX_DTYPES][N_OPS];
    int (*n_pes)(void);
    int (*team_n_pes)(void *);
    void (*signal_op)(void *, uint64_t, int, int, void *);
    void (*signal_wait)(void *, int, uint64_t, void *);
    void (*barrier_all)(void *);
    void (*sync_all)(void *);
    void (*quiet)(void *);
    void (*putmem)(void *, const void *, size_t, int);
    void (*getmem)(void *, const void *, size_t, int);
    int (*barrier)(void *, void *);
    int (*team_sync)(void *, void *);
} lib;

static PyObject *array_type, *stream_type, *error_type, *dtype_index, *typestr_index,
    *dlpack_index, *numpy_formats, *numpy_formats_hook;
static PyObject *s_ptr, *s_shape, *s_dtype, *s_name, *s_cai, *s_data,
    *s_typestr, *s_strides, *s_mask, *s_dlpack, *s_dlpack_device, *s_cuda_stream_proto,
    *s_cuda_stream, *s_ptr_attr, *s_handle, *s_own_handle, *s_device_type;

/* shmpi.core's _state as state() last gave it: init() done (and not finalized); init
 * without the device heap (barrier_all, sync_all and quiet without a stream are then the
 * host's). */
static int core_initialized, core_host_only;

/* A routine's parameters: names, how many, how many are required, and the names as
 * interned str (made on the first call: the compiler interns keywords, so a keyword is
 * found by its address). */
enum { MAX_PARAMS = 8 };
struct params {
    const char *names[MAX_PARAMS];
    int n, required;
    PyObject *keys[MAX_PARAMS];
};

static int make_keys(struct params *p)
{
    for (int i = 0; i < p->n; i++)
        if (p->keys[i] == NULL && (p->keys[i] = PyUnicode_InternFromString(p->names[i])) == NULL) {
            PyErr_Clear();
            return 0;
        }
    return 1;
}

/* Binds positional and keyword arguments to p's parameters: 0 (nothing raised) when
 * they do not bind, and the Python function says why. */
static int bind_arguments(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                          struct params *p, PyObject **out)
{
    int n = p->n;
    if (nargs > n || (p->keys[n - 1] == NULL && !make_keys(p)))
        return 0;
    for (int i = 0; i < n; i++)
        out[i] = i < nargs ? args[i] : NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        /* a keyword names a parameter after the positional ones (else it does not bind),
         * so those are looked at first */
        int j = (int)nargs;
        while (j < n && key != p->keys[j])
            j++;
        if (j == n) {
            j = 0;
            while (j < n && PyUnicode_CompareWithASCIIString(key, p->names[j]) != 0)
                j++;
        }
        if (j == n || out[j] != NULL)
            return 0;
        out[j] = args[nargs + k];
    }
    for (int i = 0; i < p->required; i++)
        if (out[i] == NULL)
            return 0;
    return 1;
}

/* A Python int as a non-negative value below limit (0: no limit); 0 otherwise. */
static int read_index(PyObject *o, long long limit, long long *out)
{
    if (!PyLong_Check(o))
        return 0;
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    if (v < 0 || (limit > 0 && v >= limit))
        return 0;
    *out = v;
    return 1;
}

static int read_pe(PyObject *o, int *pe)
{
    long long v;
    if (o == NULL || !read_index(o, lib.n_pes(), &v))
        return 0;
    *pe = (int)v;
    return 1;
}

/* A team handle (a positive int: Teams, Team, or the C handle). */
static int read_team(PyObject *o, void **team)
{
    if (!PyLong_Check(o))
        return 0;
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (v == 0)
        return 0;
    *team = (void *)(uintptr_t)v;
    return 1;
}

/* int(value) as ctypes passes it to a uint64_t: modulo 2**64. */
static int read_u64(PyObject *o, uint64_t *out)
{
    if (!PyLong_Check(o))
        return 0;
    unsigned long long v = PyLong_AsUnsignedLongLongMask(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    *out = v;
    return 1;
}

/* A handle as _interop._as_int reads it: None is 0, an int itself (as a pointer). */
static int read_handle_value(PyObject *v, uintptr_t *h)
{
    if (v == Py_None) {
        *h = 0;
        return 1;
    }
    if (!PyLong_Check(v))
        return 0;
    unsigned long long x = PyLong_AsUnsignedLongLong(v);
    if (x == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    *h = (uintptr_t)x;
    return 1;
}

/* ---- attributes kept in slots ------------------------------------------------------ */
/* shmpi.core's Array and Stream keep the attributes read here in __slots__: where an
 * object's type has the generic getattr and each name is an object member (a slot) in its
 * MRO, getattr returns what the object's slot holds, so it is read there directly.  That
 * holds while the type keeps its version tag (CPython gives a type a new tag when it or a
 * base changes), so the slots' offsets are kept per type and tag; nothing of the object
 * is kept. */
enum { MAX_SLOTS = 4 };
struct slots {
    PyObject *type;  /* a reference; NULL: none yet */
    unsigned int tag;
    Py_ssize_t offset[MAX_SLOTS];
};

static unsigned int version_tag(PyTypeObject *type)
{
#ifdef Py_TPFLAGS_VALID_VERSION_TAG
    if (!PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG))
        return 0;
#endif
    return type->tp_version_tag;  /* 0: none */
}

/* The slots of `names` in `type` from `seen`, the last two types read (an Array and a
 * Buffer in one call), or found now and kept there; NULL where they are not plain slots. */
static const struct slots *slots_of(PyTypeObject *type, PyObject *const *names, int n,
                                    struct slots seen[2])
{
    unsigned int tag = version_tag(type);
    for (int k = 0; k < 2; k++)
        if ((PyObject *)type == seen[k].type && tag != 0 && tag == seen[k].tag)
            return &seen[k];
    if (type->tp_getattro != PyObject_GenericGetAttr)
        return NULL;
    Py_ssize_t offset[MAX_SLOTS];
    for (int i = 0; i < n; i++) {
        PyObject *descr = _PyType_Lookup(type, names[i]);
        if (descr == NULL || Py_TYPE(descr) != &PyMemberDescr_Type)
            return NULL;
        const PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
        if (member->type != OBJECT_MEMBER)
            return NULL;
        offset[i] = member->offset;
    }
    tag = version_tag(type);  /* the lookups give the type a tag where it had none */
    if (tag == 0)
        return NULL;
    Py_XSETREF(seen[1].type, seen[0].type);  /* the older entry makes room */
    seen[1].tag = seen[0].tag;
    memcpy(seen[1].offset, seen[0].offset, sizeof seen[0].offset);
    seen[0].type = Py_NewRef((PyObject *)type);
    seen[0].tag = tag;
    memcpy(seen[0].offset, offset, sizeof offset);
    return &seen[0];
}

/* What obj's slot i (of `found`) holds: a borrowed reference, NULL when it is empty. */
static PyObject *slot_value(PyObject *obj, const struct slots *found, int i)
{
    return *(PyObject **)((char *)obj + found->offset[i]);
}

/* obj's attributes `names` (new references): from its slots where slots_of finds them,
 * else by getattr; 0 (nothing raised) where one is missing. */
static int read_attrs(PyObject *obj, PyObject *const *names, int n, struct slots seen[2],
                      PyObject **out)
{
    int i = 0;
    const struct slots *found = slots_of(Py_TYPE(obj), names, n, seen);
    if (found != NULL)
        while (i < n && (out[i] = slot_value(obj, found, i)) != NULL)
            Py_INCREF(out[i++]);
    for (; i < n; i++)  /* an empty slot: getattr raises AttributeError */
        if ((out[i] = PyObject_GetAttr(obj, names[i])) == NULL) {
            PyErr_Clear();
            while (i > 0)
                Py_CLEAR(out[--i]);
            return 0;
        }
    return 1;
}

/* The CUstream of a stream argument, as _interop.stream_handle reads it. */
static int read_stream(PyObject *s, uintptr_t *h)
{
    if (s == NULL || s == Py_None) {
        *h = 0;
        return 1;
    }
    if (PyBool_Check(s))
        return 0;
    if (PyLong_Check(s)) {
        long long v;
        if (!read_index(s, 0, &v))
            return 0;
        *h = (uintptr_t)v;
        return 1;
    }
    if (Py_TYPE(s) == (PyTypeObject *)stream_type) {
        /* shmpi.core.Stream's __cuda_stream__ is (0, self._handle): read it directly; the
         * last int read there is kept (with a reference) beside its value */
        static struct slots stream_slots[2];
        static PyObject *handle_seen;
        static uintptr_t value_seen;
        const struct slots *found = slots_of(Py_TYPE(s), &s_own_handle, 1, stream_slots);
        PyObject *v;
        if (found != NULL && handle_seen != NULL &&
            slot_value(s, found, 0) == handle_seen) {
            *h = value_seen;
            return 1;
        }
        if (!read_attrs(s, &s_own_handle, 1, stream_slots, &v))
            return 0;
        int ok = read_handle_value(v, h);
        if (ok && PyLong_CheckExact(v)) {
            Py_XSETREF(handle_seen, Py_NewRef(v));
            value_seen = *h;
        }
        Py_DECREF(v);
        return ok;
    }
    PyObject *proto;
    if (lookup_attr(s, s_cuda_stream_proto, &proto) < 0) {
        PyErr_Clear();
        return 0;
    }
    if (proto != NULL && proto != Py_None) {
        PyObject *value = PyCallable_Check(proto) ? PyObject_CallNoArgs(proto) : Py_NewRef(proto);
        Py_DECREF(proto);
        int ok = value != NULL && PyTuple_Check(value) && PyTuple_GET_SIZE(value) >= 2 &&
                 read_handle_value(PyTuple_GET_ITEM(value, 1), h);
        Py_XDECREF(value);
        if (!ok)
            PyErr_Clear();
        return ok;
    }
    Py_XDECREF(proto);
    PyObject *const attrs[3] = { s_cuda_stream, s_ptr_attr, s_handle };
    for (int i = 0; i < 3; i++) {
        PyObject *v;
        if (lookup_attr(s, attrs[i], &v) < 0) {
            PyErr_Clear();
            return 0;
        }
        if (v == NULL)
            continue;
        int ok = read_handle_value(v, h);
        Py_DECREF(v);
        return ok;  /* anything but an int or None: the Python path reads it */
    }
    return 0;
}

/* ---- arrays --------------------------------------------------------------------------- */
enum { DL_CPU = 1, DL_CUDA = 2 };

struct arr {
    uintptr_t ptr;
    long long size, nbytes;
    int dtype;
    int device;  /* DLPack's device type: DL_CPU for host memory */
};

enum { MAX_NDIM = 64 };

/* Element counts of a shape (a tuple or list of non-negative ints) and its product;
 * 0 for anything else or an overflow. */
static int read_shape(PyObject *shape, long long *dims, int *ndim, long long *size)
{
    if (!PyTuple_Check(shape) && !PyList_Check(shape))
        return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(shape);
    if (n > MAX_NDIM)
        return 0;
    long long prod = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!read_index(PySequence_Fast_GET_ITEM(shape, i), 0, &dims[i]))
            return 0;
        if (__builtin_mul_overflow(prod, dims[i], &prod))
            return 0;
    }
    *ndim = (int)n;
    *size = prod;
    return 1;
}

/* _interop._contiguous: element strides of C or Fortran order, dimensions of 1 left out. */
static int contiguous(const long long *dims, const long long *strides, int ndim)
{
    long long d[MAX_NDIM], s[MAX_NDIM];
    int n = 0;
    for (int i = 0; i < ndim; i++)
        if (dims[i] != 1) {
            d[n] = dims[i];
            s[n++] = strides[i];
        }
    int c = 1, f = 1;
    long long step = 1;
    for (int i = n - 1; i >= 0; i--) {
        c &= s[i] == step;
        step *= d[i];
    }
    step = 1;
    for (int i = 0; i < n; i++) {
        f &= s[i] == step;
        step *= d[i];
    }
    return c || f;
}

static int index_of(PyObject *table, PyObject *key, int *out)
{
    PyObject *v = PyDict_GetItemWithError(table, key);
    if (v == NULL) {
        PyErr_Clear();
        return 0;
    }
    *out = (int)PyLong_AsLong(v);
    return 1;
}

static int finish(struct arr *a, uintptr_t ptr, long long size, int dtype, int device)
{
    if (dtype < 0 || dtype >= lib.n_dtypes)
        return 0;
    a->device = device;
    a->ptr = ptr;
    a->size = size;
    a->dtype = dtype;
    return !__builtin_mul_overflow(size, (long long)lib.itemsize[dtype], &a->nbytes);
}

/* What the last DESCRIBED arrays' four attributes said (replaced in turn), kept with
 * references to the four objects, each of a type whose value cannot change (int or None, a
 * tuple, str, int), so the same four objects say the same again. */
enum { DESCRIBED = 16 };
static struct { PyObject *attr[4]; struct arr a; } described[DESCRIBED];
static unsigned described_next;

static void forget_described(void)  /* the tables they were read by change */
{
    for (int k = 0; k < DESCRIBED; k++)
        for (int i = 0; i < 4; i++)
            Py_CLEAR(described[k].attr[i]);
}

static int read_own_array(PyObject *obj, struct arr *a)
{
    static struct slots array_slots[2];
    PyObject *const names[4] = { s_ptr, s_shape, s_dtype, s_device_type };
    PyObject *v[4];  /* ptr, shape, dtype, device_type */
    const struct slots *found = slots_of(Py_TYPE(obj), names, 4, array_slots);
    if (found != NULL) {
        /* the common case without references: obj keeps its slots' objects, and nothing
         * here runs Python code */
        for (int i = 0; i < 4; i++)
            v[i] = slot_value(obj, found, i);
        for (int k = 0; v[0] != NULL && k < DESCRIBED; k++)
            if (described[k].attr[0] == v[0] && described[k].attr[1] == v[1] &&
                described[k].attr[2] == v[2] && described[k].attr[3] == v[3]) {
                *a = described[k].a;
                return 1;
            }
    }
    long long size, dev, dims[MAX_NDIM];
    int t, ndim;
    uintptr_t p;
    if (!read_attrs(obj, names, 4, array_slots, v))
        return 0;
    int ok = read_handle_value(v[0], &p) && read_shape(v[1], dims, &ndim, &size) &&
             PyUnicode_Check(v[2]) && index_of(dtype_index, v[2], &t) &&
             read_index(v[3], 1 << 16, &dev) && finish(a, p, size, t, (int)dev);
    if (ok && (v[0] == Py_None || PyLong_CheckExact(v[0])) && PyTuple_CheckExact(v[1]) &&
        PyUnicode_CheckExact(v[2]) && PyLong_CheckExact(v[3])) {
        unsigned k = described_next++ % DESCRIBED;
        for (int i = 0; i < 4; i++)
            Py_XSETREF(described[k].attr[i], Py_NewRef(v[i]));
        described[k].a = *a;
    }
    for (int i = 0; i < 4; i++)
        Py_DECREF(v[i]);
    if (!ok)
        PyErr_Clear();
    return ok;
}

/* _interop._bfloat16_says: 1, 0, or -1 (the Python path decides). */
static int says_bfloat16(PyObject *obj)
{
    PyObject *d, *name;
    if (lookup_attr(obj, s_dtype, &d) < 0)
        return -1;
    if (d == NULL || d == Py_None) {
        Py_XDECREF(d);
        return 0;
    }
    if (lookup_attr(d, s_name, &name) < 0) {
        Py_DECREF(d);
        return -1;
    }
    PyObject *text = PyObject_Str(name != NULL ? name : d);
    Py_XDECREF(name);
    Py_DECREF(d);
    if (text == NULL)
        return -1;
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(text, &n);
    int says = s != NULL && n >= 8 && strncasecmp(s + n - 8, "bfloat16", 8) == 0;
    Py_DECREF(text);
    return s == NULL ? -1 : says;
}

static int read_cai(PyObject *cai, struct arr *a)
{
    if (!PyDict_Check(cai))
        return 0;
    PyObject *data = PyDict_GetItemWithError(cai, s_data);
    PyObject *shape = data ? PyDict_GetItemWithError(cai, s_shape) : NULL;
    PyObject *mask = shape ? PyDict_GetItemWithError(cai, s_mask) : NULL;
    if (shape == NULL || (mask != NULL && mask != Py_None) || PyErr_Occurred())
        return 0;
    PyObject *typestr = PyDict_GetItemWithError(cai, s_typestr);
    PyObject *strides = typestr ? PyDict_GetItemWithError(cai, s_strides) : NULL;
    int t;
    if (PyErr_Occurred() || typestr == NULL || !PyUnicode_Check(typestr) ||
        !index_of(typestr_index, typestr, &t))
        return 0;  /* "|u1" by default, and anything unusual: the Python path */
    long long dims[MAX_NDIM], size, st[MAX_NDIM];
    int ndim;
    if (!read_shape(shape, dims, &ndim, &size))
        return 0;
    if (strides != NULL && strides != Py_None) {
        long long bytes[MAX_NDIM], size_s;
        int n;
        if (!read_shape(strides, bytes, &n, &size_s) || n != ndim)
            return 0;  /* negative strides included */
        for (int i = 0; i < ndim; i++) {
            if (bytes[i] % lib.itemsize[t])
                return 0;
            st[i] = bytes[i] / lib.itemsize[t];
        }
        if (!contiguous(dims, st, ndim))
            return 0;
    }
    if ((!PyTuple_Check(data) && !PyList_Check(data)) || PySequence_Fast_GET_SIZE(data) < 1)
        return 0;
    uintptr_t p;
    if (!read_handle_value(PySequence_Fast_GET_ITEM(data, 0), &p))
        return 0;
    return finish(a, p, size, t, DL_CUDA);
}

/* DLPack's structs (dlpack.h, unversioned "dltensor" capsules). */
typedef struct {
    void *data;
    struct { int32_t device_type, device_id; } device;
    int32_t ndim;
    struct { uint8_t code, bits; uint16_t lanes; } dtype;
    int64_t *shape, *strides;
    uint64_t byte_offset;
} DLTensor;

static int read_dlpack(PyObject *obj, PyObject *export, struct arr *a)
{
    PyObject *capsule = PyObject_CallNoArgs(export);
    if (capsule == NULL || !PyCapsule_IsValid(capsule, "dltensor")) {
        Py_XDECREF(capsule);
        PyErr_Clear();
        return 0;
    }
    const DLTensor *t = PyCapsule_GetPointer(capsule, "dltensor");
    int ok = t->dtype.lanes == 1 && t->ndim >= 0 && t->ndim <= MAX_NDIM &&
             (t->ndim == 0 || t->shape != NULL) &&
             (t->device.device_type == 1 || t->device.device_type == 2 ||
              t->device.device_type == 3 || t->device.device_type == 13);
    int dtype = -1;
    long long dims[MAX_NDIM], size = 1;
    if (ok) {
        PyObject *key = Py_BuildValue("(ii)", t->dtype.code, t->dtype.bits);
        ok = key != NULL && index_of(dlpack_index, key, &dtype);
        Py_XDECREF(key);
    }
    for (int i = 0; ok && i < t->ndim; i++) {
        dims[i] = t->shape[i];
        ok = dims[i] >= 0 && !__builtin_mul_overflow(size, dims[i], &size);
    }
    if (ok && t->strides != NULL)
        ok = contiguous(dims, (const long long *)t->strides, t->ndim);
    uintptr_t p = (uintptr_t)t->data + (uintptr_t)t->byte_offset;
    int t_device = t->device.device_type;
    Py_DECREF(capsule);  /* its producer's data stays: obj holds it */
    if (ok) {
        int bf16 = says_bfloat16(obj);
        ok = bf16 == 0;  /* a bfloat16 says so by its dtype's name: the Python path */
    }
    PyErr_Clear();
    return ok && finish(a, p, size, dtype, t_device);
}

/* numpy's ndarray through the buffer protocol, as the Python path reads it through
 * DLPack: the formats numpy exports by DLPack (found once, numpy_formats_hook). */
static int read_numpy(PyObject *obj, struct arr *a)
{
    if (numpy_formats == NULL) {
        PyObject *formats = PyObject_CallNoArgs(numpy_formats_hook);
        if (formats == NULL || !PyDict_Check(formats)) {
            Py_XDECREF(formats);
            PyErr_Clear();
            return 0;
        }
        numpy_formats = formats;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_RECORDS_RO) < 0) {
        PyErr_Clear();
        return 0;
    }
    int t, ok = !view.readonly && view.ndim <= MAX_NDIM && view.format != NULL &&
                (view.ndim == 0 || (view.shape != NULL && view.strides != NULL));
    PyObject *format = ok ? PyUnicode_FromString(view.format) : NULL;
    ok = format != NULL && index_of(numpy_formats, format, &t);
    Py_XDECREF(format);
    long long dims[MAX_NDIM], strides[MAX_NDIM], size = 1;
    for (int i = 0; ok && i < view.ndim; i++) {
        dims[i] = view.shape[i];
        ok = view.strides[i] % lib.itemsize[t] == 0;
        strides[i] = view.strides[i] / lib.itemsize[t];
        size *= dims[i];
    }
    ok = ok && contiguous(dims, strides, view.ndim) &&
         finish(a, (uintptr_t)view.buf, size, t, DL_CPU);
    PyBuffer_Release(&view);
    PyErr_Clear();
    return ok;
}

/* _interop.array_info's common cases, in its order; 0 for the Python path. */
static int read_array(PyObject *obj, struct arr *a)
{
    if (PyObject_TypeCheck(obj, (PyTypeObject *)array_type))
        return read_own_array(obj, a);
    if (strcmp(Py_TYPE(obj)->tp_name, "numpy.ndarray") == 0)
        return read_numpy(obj, a);
    PyObject *cai;
    if (lookup_attr(obj, s_cai, &cai) < 0) {
        PyErr_Clear();
        return 0;
    }
    if (cai != NULL && cai != Py_None) {
        int ok = read_cai(cai, a);
        Py_DECREF(cai);
        if (ok) {
            int bf16 = says_bfloat16(obj);
            ok = bf16 == 0;
        }
        PyErr_Clear();
        return ok;
    }
    Py_XDECREF(cai);
    PyObject *export, *device;
    if (lookup_attr(obj, s_dlpack, &export) < 0 || export == NULL) {
        PyErr_Clear();
        return 0;
    }
    if (lookup_attr(obj, s_dlpack_device, &device) < 0 || device == NULL) {
        Py_DECREF(export);
        PyErr_Clear();
        return 0;
    }
    Py_DECREF(device);
    int ok = read_dlpack(obj, export, a);
    Py_DECREF(export);
    return ok;
}

/* A signal: 8 bytes at least, 8-byte aligned (core._signal_ptr). */
static int read_signal(PyObject *obj, void **sig)
{
    struct arr a;
    if (!read_array(obj, &a) || a.nbytes < 8 || a.ptr % 8)
        return 0;
    *sig = (void *)a.ptr;
    return 1;
}

static int read_small(PyObject *o, int lo, int hi, int *out)
{
    long long v;
    if (!read_index(o, hi + 1, &v) || v < lo)
        return 0;
    *out = (int)v;
    return 1;
}

#define SLOW(route) PyObject_Vectorcall(slow[route], args, nargs, kwnames)
/* A call on a stream only enqueues (the stream proxy, a C thread, does the rest) and
 * returns in about a microsecond: it keeps the GIL, as a kernel launch does, which saves
 * about 0.3 us a call (benchmarks/RESULTS.md).  A call on host memory may wait for the
 * network: it releases the GIL (Py_BEGIN_ALLOW_THREADS in rma()), as ctypes does. */
#define FASTCALL PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames
#define UNUSED_SELF (void)self
#define ENTRY(route) \
    do { \
        UNUSED_SELF; \
        if (!lib.ready || !core_initialized) \
            return SLOW(route); \
    } while (0)

static PyObject *rc_result(int rc, PyObject *name)
{
    if (rc) {
        PyErr_Format(error_type, "shmpi: %U returned %d", name, rc);
        return NULL;
    }
    Py_RETURN_NONE;
}

typedef void (*rma_fn)(void *, const void *, size_t, int, void *);
typedef void (*put_signal_fn)(void *, const void *, size_t, void *, uint64_t, int, int, void *);

static PyObject *rma(enum route route, enum move_kind kind, PyObject *const *args,
                     Py_ssize_t nargs, PyObject *kwnames)
{
    static struct params params = { {"dst", "src", "remote_pe", "stream"}, 4, 3, {NULL} };
    PyObject *v[4];
    struct arr d, s;
    int pe;
    uintptr_t h;
    if (!bind_arguments(args, nargs, kwnames, &params, v) || !read_array(v[0], &d) ||
        !read_array(v[1], &s) || !read_pe(v[2], &pe) || !read_stream(v[3], &h))
        return SLOW(route);
    long long nbytes = d.nbytes < s.nbytes ? d.nbytes : s.nbytes;
    if ((kind == M_GET ? s.device : d.device) == DL_CPU) {
        /* host_array memory: OpenSHMEM's own routines, no stream (core._rma) */
        if (v[3] != NULL && v[3] != Py_None)
            return SLOW(route);
        Py_BEGIN_ALLOW_THREADS
        (kind == M_GET ? lib.getmem : lib.putmem)((void *)d.ptr, (const void *)s.ptr,
                                                  (size_t)nbytes, pe);
        Py_END_ALLOW_THREADS
        Py_RETURN_NONE;
    }
    const struct routine *r = &lib.move[kind][d.dtype == s.dtype ? d.dtype : lib.uint8];
    if (r->fn == NULL)
        return SLOW(route);
    size_t count = (size_t)(nbytes / r->elem);
    ((rma_fn)r->fn)((void *)d.ptr, (const void *)s.ptr, count, pe, (void *)h);
    Py_RETURN_NONE;
}

static PyObject *fast_put(FASTCALL)
{
    ENTRY(R_PUT);
    return rma(R_PUT, M_PUT, args, nargs, kwnames);
}

static PyObject *fast_get(FASTCALL)
{
    ENTRY(R_GET);
    return rma(R_GET, M_GET, args, nargs, kwnames);
}

static PyObject *fast_put_signal(FASTCALL)
{
    static struct params params = { {"dst", "src", "signal_var", "signal_val", "signal_op",
                                    "remote_pe", "stream"}, 7, 6, {NULL} };
    PyObject *v[7];
    struct arr d, s;
    void *sig;
    uint64_t value;
    int op, pe;
    uintptr_t h;
    ENTRY(R_PUT_SIGNAL);
    if (!bind_arguments(args, nargs, kwnames, &params, v) || !read_small(v[4], 0, 1, &op) ||
        !read_signal(v[2], &sig) || !read_u64(v[3], &value) || !read_array(v[0], &d) ||
        !read_array(v[1], &s) || !read_pe(v[5], &pe) || !read_stream(v[6], &h))
        return SLOW(R_PUT_SIGNAL);
    const struct routine *r = &lib.move[M_PUT_SIGNAL][d.dtype == s.dtype ? d.dtype : lib.uint8];
    if (r->fn == NULL)
        return SLOW(R_PUT_SIGNAL);
    size_t count = (size_t)((d.nbytes < s.nbytes ? d.nbytes : s.nbytes) / r->elem);
    ((put_signal_fn)r->fn)((void *)d.ptr, (const void *)s.ptr, count, sig, value, op, pe,
                           (void *)h);
    Py_RETURN_NONE;
}

static PyObject *fast_signal_op(FASTCALL)
{
    static struct params params = { {"signal_var", "signal_val", "signal_op", "remote_pe",
                                    "stream"}, 5, 4, {NULL} };
    PyObject *v[5];
    void *sig;
    uint64_t value;
    int op, pe;
    uintptr_t h;
    ENTRY(R_SIGNAL_OP);
    if (!bind_arguments(args, nargs, kwnames, &params, v) || !read_small(v[2], 0, 1, &op) ||
        !read_signal(v[0], &sig) || !read_u64(v[1], &value) || !read_pe(v[3], &pe) ||
        !read_stream(v[4], &h))
        return SLOW(R_SIGNAL_OP);
    lib.signal_op(sig, value, op, pe, (void *)h);
    Py_RETURN_NONE;
}

static PyObject *fast_signal_wait(FASTCALL)
{
    static struct params params = { {"signal_var", "signal_val", "signal_op", "stream"}, 4, 3,
                                    {NULL} };
    PyObject *v[4];
    void *sig;
    uint64_t value;
    int cmp;
    uintptr_t h;
    ENTRY(R_SIGNAL_WAIT);
    /* CMP_EQ (0), CMP_GT (2), CMP_GE (3): what a stream waits for */
    if (!bind_arguments(args, nargs, kwnames, &params, v) || !read_small(v[2], 0, 3, &cmp) ||
        cmp == 1 || !read_signal(v[0], &sig) || !read_u64(v[1], &value) || !read_stream(v[3], &h))
        return SLOW(R_SIGNAL_WAIT);
    lib.signal_wait(sig, cmp, value, (void *)h);
    Py_RETURN_NONE;
}

static PyObject *stream_only(enum route route, void (*fn)(void *), PyObject *const *args,
                             Py_ssize_t nargs, PyObject *kwnames)
{
    static struct params params = { {"stream"}, 1, 0, {NULL} };
    PyObject *v[1];
    uintptr_t h;
    /* init(device_heap=False): with no stream these are the host's (the Python path) */
    if (core_host_only || !bind_arguments(args, nargs, kwnames, &params, v) ||
        !read_stream(v[0], &h))
        return SLOW(route);
    fn((void *)h);
    Py_RETURN_NONE;
}

static PyObject *fast_barrier_all(FASTCALL)
{
    ENTRY(R_BARRIER_ALL);
    return stream_only(R_BARRIER_ALL, lib.barrier_all, args, nargs, kwnames);
}

static PyObject *fast_sync_all(FASTCALL)
{
    ENTRY(R_SYNC_ALL);
    return stream_only(R_SYNC_ALL, lib.sync_all, args, nargs, kwnames);
}

static PyObject *fast_quiet(FASTCALL)
{
    ENTRY(R_QUIET);
    return stream_only(R_QUIET, lib.quiet, args, nargs, kwnames);
}

static PyObject *team_stream(enum route route, int (*fn)(void *, void *), PyObject *name,
                             PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static struct params params = { {"team", "stream"}, 2, 1, {NULL} };
    PyObject *v[2];
    void *team;
    uintptr_t h;
    int rc;
    if (!bind_arguments(args, nargs, kwnames, &params, v) || !read_team(v[0], &team) ||
        !read_stream(v[1], &h))
        return SLOW(route);
    rc = fn(team, (void *)h);
    return rc_result(rc, name);
}

static PyObject *barrier_name, *team_sync_name;

static PyObject *fast_barrier(FASTCALL)
{
    ENTRY(R_BARRIER);
    return team_stream(R_BARRIER, lib.barrier, barrier_name, args, nargs, kwnames);
}

static PyObject *fast_sync(FASTCALL)
{
    ENTRY(R_SYNC);
    return team_stream(R_SYNC, lib.team_sync, team_sync_name, args, nargs, kwnames);
}

typedef int (*coll_fn)(void *, void *, const void *, size_t, void *);

static PyObject *fast_reduce(FASTCALL)
{
    static struct params params = { {"team", "dst_array", "src_array", "op", "stream"}, 5, 4,
                                    {NULL} };
    PyObject *v[5];
    struct arr d, s;
    void *team;
    uintptr_t h;
    int op = 0, rc;
    ENTRY(R_REDUCE);
    if (!bind_arguments(args, nargs, kwnames, &params, v) || !read_array(v[1], &d) ||
        !read_array(v[2], &s) || d.dtype != s.dtype || !PyUnicode_Check(v[3]))
        return SLOW(R_REDUCE);
    while (op < N_OPS && PyUnicode_CompareWithASCIIString(v[3], op_names[op]) != 0)
        op++;
    if (op == N_OPS || lib.reduce[d.dtype][op].fn == NULL || s.size < d.size ||
        !read_team(v[0], &team) || !read_stream(v[4], &h))
        return SLOW(R_REDUCE);
    const struct routine *r = &lib.reduce[d.dtype][op];
    rc = ((coll_fn)r->fn)(team, (void *)d.ptr, (const void *)s.ptr, (size_t)d.size, (void *)h);
    return rc_result(rc, r->name);
}

static PyObject *fast_fcollect(FASTCALL)
{
    static struct params params = { {"team", "dst_array", "src_array", "stream"}, 4, 3, {NULL} };
    PyObject *v[4];
    struct arr d, s;
    void *team;
    uintptr_t h;
    int rc;
    long long need;
    ENTRY(R_FCOLLECT);
    if (!bind_arguments(args, nargs, kwnames, &params, v) || !read_array(v[1], &d) ||
        !read_array(v[2], &s) || d.dtype != s.dtype || !read_team(v[0], &team))
        return SLOW(R_FCOLLECT);
    int n = lib.team_n_pes(team);
    const struct routine *r = &lib.move[M_FCOLLECT][d.dtype];
    if (n < 0 || __builtin_mul_overflow(s.size, (long long)n, &need) || d.size < need ||
        r->fn == NULL || !read_stream(v[3], &h))
        return SLOW(R_FCOLLECT);
    rc = ((coll_fn)r->fn)(team, (void *)d.ptr, (const void *)s.ptr, (size_t)(s.nbytes / r->elem),
                          (void *)h);
    return rc_result(rc, r->name);
}

/* ---- set-up from shmpi.core ------------------------------------------------------------ */
static int store(PyObject **slot, PyObject *value)
{
    Py_XINCREF(value);
    Py_XSETREF(*slot, value);
    return value != NULL;
}

static PyObject *fast_bind(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *slow_map, *array, *stream, *error, *dtypes, *typestrs, *dlpack, *hook;
    if (!PyArg_ParseTuple(args, "O!OOOO!O!O!O:bind", &PyDict_Type, &slow_map, &array, &stream,
                          &error, &PyDict_Type, &dtypes, &PyDict_Type, &typestrs, &PyDict_Type,
                          &dlpack, &hook))
        return NULL;
    if (!PyType_Check(array) || !PyType_Check(stream)) {
        PyErr_SetString(PyExc_TypeError, "bind: Array and Stream are types");
        return NULL;
    }
    for (int i = 0; i < R_COUNT; i++) {
        PyObject *f = PyDict_GetItemString(slow_map, route_names[i]);
        if (f == NULL) {
            PyErr_Format(PyExc_KeyError, "bind: no Python function %s", route_names[i]);
            return NULL;
        }
        store(&slow[i], f);
    }
    store(&array_type, array);
    store(&stream_type, stream);
    store(&error_type, error);
    store(&dtype_index, dtypes);
    forget_described();
    store(&typestr_index, typestrs);
    store(&dlpack_index, dlpack);
    store(&numpy_formats_hook, hook);
    Py_CLEAR(numpy_formats);
    Py_RETURN_NONE;
}

static void *address(PyObject *map, const char *name)
{
    PyObject *v = PyDict_GetItemString(map, name);
    return v != NULL && PyLong_Check(v) ? PyLong_AsVoidPtr(v) : NULL;
}

/* One (address or 0, element bytes, name) triple into a routine. */
static int read_routine(PyObject *triple, struct routine *r)
{
    PyObject *addr, *name;
    Py_ssize_t elem;
    if (!PyArg_ParseTuple(triple, "OnU", &addr, &elem, &name))
        return 0;
    r->fn = PyLong_AsVoidPtr(addr);
    if (PyErr_Occurred())
        return 0;
    r->elem = elem > 0 ? elem : 1;
    return store(&r->name, name);
}

static PyObject *fast_setup(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *singles, *itemsizes, *moves, *reduces;
    int uint8;
    if (!PyArg_ParseTuple(args, "O!O!O!O!i:setup", &PyDict_Type, &singles, &PyList_Type,
                          &itemsizes, &PyDict_Type, &moves, &PyList_Type, &reduces, &uint8))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(itemsizes);
    if (n > MAX_DTYPES || PyList_GET_SIZE(reduces) != n) {
        PyErr_SetString(PyExc_ValueError, "setup: too many dtypes, or reduce rows differ");
        return NULL;
    }
    lib.ready = 0;
    forget_described();
    for (Py_ssize_t i = 0; i < n; i++)
        lib.itemsize[i] = PyLong_AsSsize_t(PyList_GET_ITEM(itemsizes, i));
    for (int k = 0; k < M_COUNT; k++) {
        PyObject *row = PyDict_GetItemString(moves, move_names[k]);
        if (row == NULL || !PyList_Check(row) || PyList_GET_SIZE(row) != n) {
            PyErr_Format(PyExc_ValueError, "setup: moves[%s] is no list of %zd", move_names[k], n);
            return NULL;
        }
        for (Py_ssize_t i = 0; i < n; i++)
            if (!read_routine(PyList_GET_ITEM(row, i), &lib.move[k][i]))
                return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *row = PyList_GET_ITEM(reduces, i);
        if (!PyList_Check(row) || PyList_GET_SIZE(row) != N_OPS) {
            PyErr_SetString(PyExc_ValueError, "setup: a reduce row is no list of 7");
            return NULL;
        }
        for (int op = 0; op < N_OPS; op++)
            if (!read_routine(PyList_GET_ITEM(row, op), &lib.reduce[i][op]))
                return NULL;
    }
#define SINGLE(field, name) \
    *(void **)&lib.field = address(singles, name); \
    if (lib.field == NULL) { \
        PyErr_Format(PyExc_ValueError, "setup: no address of %s", name); \
        return NULL; \
    }
    SINGLE(n_pes, "shmem_n_pes")
    SINGLE(team_n_pes, "shmem_team_n_pes")
    SINGLE(signal_op, "shmemx_signal_op_on_stream")
    SINGLE(signal_wait, "shmemx_signal_wait_until_on_stream")
    SINGLE(barrier_all, "shmemx_barrier_all_on_stream")
    SINGLE(sync_all, "shmemx_sync_all_on_stream")
    SINGLE(quiet, "shmemx_quiet_on_stream")
    SINGLE(putmem, "shmem_putmem")
    SINGLE(getmem, "shmem_getmem")
    SINGLE(barrier, "shmemx_barrier_on_stream")
    SINGLE(team_sync, "shmemx_team_sync_on_stream")
#undef SINGLE
    lib.n_dtypes = (int)n;
    lib.uint8 = uint8;
    lib.ready = 1;
    Py_RETURN_NONE;
}

/* The readers alone, for tests/fuzz/python_arrays.py: (ptr, nbytes, dtype index) or None
 * where the Python path decides; the stream's handle or None. */
static PyObject *fast_read_array(PyObject *self, PyObject *obj)
{
    (void)self;
    struct arr a;
    if (lib.n_dtypes == 0 || !read_array(obj, &a))
        Py_RETURN_NONE;
    return Py_BuildValue("(KLi)", (unsigned long long)a.ptr, a.nbytes, a.dtype);
}

static PyObject *fast_read_stream(PyObject *self, PyObject *obj)
{
    (void)self;
    uintptr_t h;
    if (!read_stream(obj, &h))
        Py_RETURN_NONE;
    return PyLong_FromUnsignedLongLong(h);
}

static PyObject *fast_state(PyObject *self, PyObject *args)
{
    (void)self;
    int initialized, host_only;
    if (!PyArg_ParseTuple(args, "pp:state", &initialized, &host_only))
        return NULL;
    core_initialized = initialized;
    core_host_only = host_only;
    Py_RETURN_NONE;
}

static PyObject *fast_ready(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyBool_FromLong(lib.ready);
}

#define FAST(name, sig) \
    { #name, (PyCFunction)(void (*)(void))fast_##name, METH_FASTCALL | METH_KEYWORDS, \
      #name "(" sig ")\n--\n\nshmpi.core." #name ", compiled (shmpi._fast)." }

static PyMethodDef methods[] = {
    FAST(put, "dst, src, remote_pe=-1, stream=None"),
    FAST(get, "dst, src, remote_pe=-1, stream=None"),
    FAST(put_signal, "dst, src, signal_var, signal_val, signal_op, remote_pe=-1, stream=None"),
    FAST(signal_op, "signal_var, signal_val, signal_op, remote_pe=-1, stream=None"),
    FAST(signal_wait, "signal_var, signal_val, signal_op, stream=None"),
    FAST(barrier_all, "stream=None"),
    FAST(sync_all, "stream=None"),
    FAST(quiet, "stream=None"),
    FAST(barrier, "team, stream=None"),
    FAST(sync, "team, stream=None"),
    FAST(reduce, "team, dst_array, src_array, op, stream=None"),
    FAST(fcollect, "team, dst_array, src_array, stream=None"),
    { "bind", fast_bind, METH_VARARGS,
      "bind(slow, Array, Stream, ShmpiError, dtypes, typestrs, dlpack, numpy_formats_hook): "
      "the Python functions, tables and types of shmpi.core." },
    { "state", fast_state, METH_VARARGS,
      "state(initialized, host_only): shmpi.core's state, at each change." },
    { "setup", fast_setup, METH_VARARGS,
      "setup(addresses, itemsizes, moves, reduces, uint8): the library's routines." },
    { "ready", fast_ready, METH_NOARGS, "Whether setup() gave the library's routines." },
    { "read_array", fast_read_array, METH_O,
      "(ptr, nbytes, dtype index) as the calls read an array, or None: the Python path's." },
    { "read_stream", fast_read_stream, METH_O,
      "The stream handle as the calls read it, or None: the Python path's." },
    { NULL, NULL, 0, NULL },
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "shmpi._fast",
    "shmpi.core's hot routines in C; the Python functions stay the reference and fallback.",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fast(void)
{
    struct { PyObject **slot; const char *text; } strings[] = {
        { &s_ptr, "ptr" }, { &s_shape, "shape" },
        { &s_dtype, "dtype" }, { &s_name, "name" }, { &s_cai, "__cuda_array_interface__" },
        { &s_data, "data" }, { &s_typestr, "typestr" }, { &s_strides, "strides" },
        { &s_mask, "mask" }, { &s_dlpack, "__dlpack__" }, { &s_dlpack_device, "__dlpack_device__" },
        { &s_cuda_stream_proto, "__cuda_stream__" }, { &s_cuda_stream, "cuda_stream" },
        { &s_ptr_attr, "ptr" }, { &s_handle, "handle" }, { &s_own_handle, "_handle" },
        { &s_device_type, "device_type" },
        { &barrier_name, "shmemx_barrier_on_stream" },
        { &team_sync_name, "shmemx_team_sync_on_stream" },
    };
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++)
        if ((*strings[i].slot = PyUnicode_InternFromString(strings[i].text)) == NULL)
            return NULL;
    return PyModule_Create(&module);
}
