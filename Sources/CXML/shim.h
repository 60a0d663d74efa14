#ifndef CXML_SHIM_H
#define CXML_SHIM_H
// libxml2 (Debian libxml2-dev, pkg-config libxml-2.0): the XML parser and XPath engine XMLKit
// uses. The helpers below keep libxml2's callbacks in C: errors are recorded per parse or
// XPath context (never printed), and nothing is ever loaded from outside (no network, no
// files, no external entities or DTDs).
// Debian builds libxml2 with ICU, and then its encoding.h includes the system's ICU headers.
// Those clash with the copy of ICU inside Foundation (`_FoundationICU`: "'UErrorCode' has
// different definitions in different modules") in any client that imports Foundation and a
// module that uses this one. XMLKit never touches ICU converters (only pointers to libxml2's
// encoding handlers pass through), so the ICU part of libxml2's headers is left out.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlsave.h>
#include <stdio.h>
#include <string.h>

/// The first error libxml2 reported, with its place.
typedef struct {
    int set;
    int line;
    int column;
    int domain;
    char message[240];
} cxml_first_error;

/// What an XPath error code means (libxml2 sets no message on XPath errors it hands to a
/// context's handler); the names follow libxml2's own table.
static inline const char *cxml_xpath_message(int code) {
    static const char *const messages[] = {
        "ok", "number encoding", "unfinished literal", "start of literal", "expected $ for variable reference",
        "undefined variable", "invalid predicate", "invalid expression", "missing closing curly brace",
        "unregistered function", "invalid operand", "invalid type", "invalid number of arguments",
        "invalid context size", "invalid context position", "memory allocation error", "syntax error",
        "resource error", "sub resource error", "undefined namespace prefix", "encoding error",
        "character out of XML range", "invalid or incomplete context", "stack usage error", "forbidden variable",
        "operation limit exceeded", "recursion limit exceeded",
    };
    int index = code - XML_XPATH_EXPRESSION_OK;
    if (index < 0 || index >= (int)(sizeof(messages) / sizeof(messages[0]))) return "XPath error";
    return messages[index];
}

static inline void cxml_record(cxml_first_error *first, xmlErrorPtr error) {
    if (first == NULL || error == NULL || first->set || error->level < XML_ERR_ERROR) return;
    first->set = 1;
    first->line = error->line;
    first->column = error->int2;
    first->domain = error->domain;
    if (error->message == NULL && error->domain == XML_FROM_XPATH) {
        snprintf(first->message, sizeof(first->message), "%s (at character %d of the expression)",
                 cxml_xpath_message(error->code), error->int1 + 1);
        return;
    }
    const char *message = error->message != NULL ? error->message : "unknown error";
    strncpy(first->message, message, sizeof(first->message) - 1);
    first->message[sizeof(first->message) - 1] = 0;
}

/// What a parse reported: the first well-formedness error, and apart from it the first
/// namespace error (an unbound prefix), which only namespace-aware reading refuses.
typedef struct {
    cxml_first_error error;
    cxml_first_error namespace_error;
} cxml_parse_errors;

/// A parser context's structured error handler: libxml2 hands it the context as `data`, and
/// the records travel in the context's `_private` field. A namespace URI that is not a valid
/// URI is only a warning (Java's parsers, and so WireMock, accept it).
static inline void cxml_parser_error(void *data, xmlErrorPtr error) {
    xmlParserCtxtPtr context = (xmlParserCtxtPtr)data;
    if (context == NULL || error == NULL) return;
    cxml_parse_errors *errors = (cxml_parse_errors *)context->_private;
    if (errors == NULL) return;
    if (error->domain == XML_FROM_NAMESPACE) {
        if (error->code != XML_WAR_NS_URI && error->code != XML_WAR_NS_URI_RELATIVE) {
            cxml_record(&errors->namespace_error, error);
        }
        return;
    }
    cxml_record(&errors->error, error);
}

/// An XPath context's structured error handler (`userData` is the record).
static inline void cxml_xpath_error(void *data, xmlErrorPtr error) {
    cxml_record((cxml_first_error *)data, error);
}

/// Refuses every external resource: DTDs, external entities, XInclude.
static inline xmlParserInputPtr cxml_no_external(const char *url, const char *id, xmlParserCtxtPtr context) {
    (void)url;
    (void)id;
    (void)context;
    return NULL;
}

/// Drops libxml2's generic messages (they would go to standard error).
static inline void cxml_silent(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

/// Once per process: libxml2's globals, the loader that refuses every external resource, and
/// no generic messages on standard error (for threads started later too).
static inline void cxml_initialize(void) {
    xmlInitParser();
    xmlSetExternalEntityLoader(cxml_no_external);
    xmlThrDefSetGenericErrorFunc(NULL, cxml_silent);
    xmlSetGenericErrorFunc(NULL, cxml_silent);
}

/// Frees memory libxml2 allocated (`xmlFree` is a function pointer variable).
static inline void cxml_free(void *pointer) {
    if (pointer != NULL) xmlFree(pointer);
}

/// The node serialised as XML (no formatting), or NULL; the caller frees it with cxml_free.
static inline xmlChar *cxml_serialize(xmlDocPtr document, xmlNodePtr node) {
    xmlBufferPtr buffer = xmlBufferCreate();
    if (buffer == NULL) return NULL;
    xmlNodeDump(buffer, document, node, 0, 0);
    xmlChar *result = xmlStrdup(xmlBufferContent(buffer));
    xmlBufferFree(buffer);
    return result;
}

/// Sets every element's and attribute's namespace to none, so that XPath name tests match
/// local names (WireMock reads a document without namespaces when no prefixes are declared).
static inline void cxml_strip_namespaces(xmlNodePtr node) {
    while (node != NULL) {
        if (node->type == XML_ELEMENT_NODE) {
            node->ns = NULL;
            for (xmlAttrPtr attribute = node->properties; attribute != NULL; attribute = attribute->next) {
                attribute->ns = NULL;
            }
            if (node->children != NULL) {
                node = node->children;
                continue;
            }
        }
        while (node != NULL && node->next == NULL) {
            node = node->parent;
            if (node != NULL && node->type != XML_ELEMENT_NODE) return;
        }
        if (node != NULL) node = node->next;
    }
}

/// Parses a document from memory with the given options, recording the first errors.
/// Returns NULL when the document is not well-formed (namespace errors aside).
static inline xmlDocPtr cxml_read(const char *bytes, int length, int options, cxml_parse_errors *errors) {
    xmlParserCtxtPtr context = xmlNewParserCtxt();
    if (context == NULL) return NULL;
    context->_private = errors;
    if (context->sax != NULL) {
        context->sax->serror = cxml_parser_error;
        context->sax->initialized = XML_SAX2_MAGIC;
    }
    xmlDocPtr document = xmlCtxtReadMemory(context, bytes, length, NULL, NULL, options);
    if (document != NULL && !context->wellFormed) {
        xmlFreeDoc(document);
        document = NULL;
    }
    xmlFreeParserCtxt(context);
    return document;
}

/// A new XPath context over the document whose errors go to the record and whose work is
/// bounded by `op_limit` steps.
static inline xmlXPathContextPtr cxml_xpath_context(xmlDocPtr document, cxml_first_error *first,
                                                    unsigned long op_limit) {
    xmlXPathContextPtr context = xmlXPathNewContext(document);
    if (context == NULL) return NULL;
    context->userData = first;
    context->error = cxml_xpath_error;
    context->opLimit = op_limit;
    context->opCount = 0;
    return context;
}

/// The object's type, node count and node at an index (macros in libxml2).
static inline int cxml_nodeset_count(xmlXPathObjectPtr object) {
    return (object != NULL && object->nodesetval != NULL) ? object->nodesetval->nodeNr : 0;
}
static inline xmlNodePtr cxml_nodeset_item(xmlXPathObjectPtr object, int index) {
    return object->nodesetval->nodeTab[index];
}
#endif
