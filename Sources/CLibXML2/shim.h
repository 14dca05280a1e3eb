#ifndef STATLINE_CLIBXML2_SHIM_H
#define STATLINE_CLIBXML2_SHIM_H

// Debian builds libxml2 with ICU; its headers then pull in the system ICU headers, which clash
// with Foundation's own copy ("'UErrorCode' has different definitions in different modules").
// Statline never uses libxml2's ICU API, so switch it off before any other libxml2 header.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlsave.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

/// `xmlFree` is a global function pointer; Swift cannot call it directly.
static inline void statline_xmlFree(void *pointer) { xmlFree(pointer); }

/// A structured error handler that drops every message (errors are reported through return
/// values instead). Installed per parser / XPath context, because libxml2's handlers are
/// per thread and Swift tasks hop threads.
static inline void statline_ignoreStructuredError(void *userData, xmlErrorPtr error) {
  (void)userData;
  (void)error;
}

static inline void statline_ignoreGenericError(void *ctx, const char *msg, ...) {
  (void)ctx;
  (void)msg;
}

/// Silence libxml2's per-thread default handlers on the current thread.
static inline void statline_silenceErrors(void) {
  xmlSetStructuredErrorFunc(NULL, statline_ignoreStructuredError);
  xmlSetGenericErrorFunc(NULL, statline_ignoreGenericError);
}

#endif
