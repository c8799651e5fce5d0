// ParseXml over expat (fetcher/document/xml_events.h).
#include "fetcher/document/xml_events.h"

// Debian's libexpat is built with XML_DTD; its header declares the
// billion-laughs protection setters only when that is defined.
#ifndef XML_DTD
#define XML_DTD
#endif
#include <expat.h>

#include <algorithm>
#include <climits>

namespace crawl::fetcher::document {
namespace {

constexpr char kSeparator = '\x01';
constexpr size_t kFeed = 1 << 20;  // bytes per XML_Parse call

XmlName SplitName(const char* name) {
  const std::string_view full(name);
  const size_t sep = full.find(kSeparator);
  if (sep == std::string_view::npos) return {"", full};
  return {full.substr(0, sep), full.substr(sep + 1)};
}

struct ParseState {
  XML_Parser parser;
  XmlHandler* handler;
  size_t max_depth;
  size_t depth = 0;
  bool too_deep = false;
  bool stopped = false;

  void StopIfDone() {
    if (!stopped && !handler->WantsMore()) {
      stopped = true;
      XML_StopParser(parser, XML_FALSE);
    }
  }
};

void XMLCALL OnStart(void* data, const char* name, const char** attrs) {
  auto* state = static_cast<ParseState*>(data);
  if (state->stopped) return;
  if (++state->depth > state->max_depth) {
    state->too_deep = true;
    state->stopped = true;
    XML_StopParser(state->parser, XML_FALSE);
    return;
  }
  state->handler->Start(SplitName(name), XmlAttributes(attrs));
  state->StopIfDone();
}

void XMLCALL OnEnd(void* data, const char* name) {
  auto* state = static_cast<ParseState*>(data);
  if (state->stopped) return;
  --state->depth;
  state->handler->End(SplitName(name));
  state->StopIfDone();
}

void XMLCALL OnText(void* data, const char* text, int len) {
  auto* state = static_cast<ParseState*>(data);
  if (state->stopped || len <= 0) return;
  state->handler->Text(std::string_view(text, static_cast<size_t>(len)));
  state->StopIfDone();
}

void XMLCALL OnSkipped(void* data, const char* name, int is_parameter) {
  auto* state = static_cast<ParseState*>(data);
  if (state->stopped || is_parameter) return;
  state->handler->SkippedEntity(name);
}

// External entities are never read: refusing the reference is an error.
int XMLCALL OnExternalEntity(XML_Parser, const char*, const char*, const char*, const char*) {
  return XML_STATUS_ERROR;
}

}  // namespace

std::string_view XmlAttributes::Get(std::string_view uri, std::string_view local) const {
  for (const char** a = attrs_; a != nullptr && a[0] != nullptr; a += 2) {
    if (SplitName(a[0]).Is(uri, local)) return a[1];
  }
  return "";
}

std::string_view XmlAttributes::GetLocal(std::string_view local) const {
  for (const char** a = attrs_; a != nullptr && a[0] != nullptr; a += 2) {
    if (SplitName(a[0]).local == local) return a[1];
  }
  return "";
}

Status ParseXml(std::string_view xml, XmlHandler& handler, const XmlLimits& limits) {
  XML_Parser parser = XML_ParserCreateNS(nullptr, kSeparator);
  if (parser == nullptr) return Status::Internal("xml: no parser");
  ParseState state{parser, &handler, limits.max_depth};
  XML_SetUserData(parser, &state);
  XML_SetElementHandler(parser, OnStart, OnEnd);
  XML_SetCharacterDataHandler(parser, OnText);
  XML_SetSkippedEntityHandler(parser, OnSkipped);
  XML_SetExternalEntityRefHandler(parser, OnExternalEntity);
  XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER);
  // Documents use no entities: amplification past 4x from 64 KiB of output
  // on is an attack (expat's defaults are 100x from 8 MiB).
  XML_SetBillionLaughsAttackProtectionMaximumAmplification(parser, 4.0f);
  XML_SetBillionLaughsAttackProtectionActivationThreshold(parser, 64 * 1024);
  Status status = Status::Ok();
  size_t at = 0;
  do {
    const size_t n = std::min(kFeed, xml.size() - at);
    const bool last = at + n == xml.size();
    if (XML_Parse(parser, xml.data() + at, static_cast<int>(n), last ? XML_TRUE : XML_FALSE) !=
        XML_STATUS_OK) {
      if (state.too_deep) {
        status =
            Status::InvalidArgument("xml: elements nested deeper than " + std::to_string(limits.max_depth));
      } else if (!state.stopped) {
        status = Status::InvalidArgument(std::string("xml: ") + XML_ErrorString(XML_GetErrorCode(parser)) +
                                         " at line " + std::to_string(XML_GetCurrentLineNumber(parser)));
      }
      break;
    }
    at += n;
  } while (at < xml.size());
  XML_ParserFree(parser);
  return status;
}

}  // namespace crawl::fetcher::document
