// SPDX-License-Identifier: Apache-2.0
// S3Client over libcurl.
#include "epoxy/storage/s3/s3_client.h"

#include <curl/curl.h>
#include <openssl/evp.h>

#include <chrono>
#include <random>
#include <thread>

#include "epoxy/types/value_text.h"

namespace epoxy {

struct S3Client::Request {
  std::string method = "GET";
  std::string bucket;
  std::string key;
  std::string query;  // already encoded, parameters in sorted order
  std::vector<std::string> headers;
  std::string_view body;
  std::optional<std::pair<int64_t, int64_t>> range;  // [first, last]
};

namespace {

std::once_flag g_curl_init;

size_t AppendBody(char* data, size_t size, size_t n, void* user) {
  static_cast<std::string*>(user)->append(data, size * n);
  return size * n;
}

struct HeaderSink {
  std::string etag;
  int64_t content_length = -1;
  std::string last_modified;
};

std::string TrimCopy(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  size_t e = s.find_last_not_of(" \t\r\n");
  return b == std::string_view::npos ? "" : std::string(s.substr(b, e - b + 1));
}

size_t ReadHeader(char* data, size_t size, size_t n, void* user) {
  auto* sink = static_cast<HeaderSink*>(user);
  std::string_view line(data, size * n);
  size_t colon = line.find(':');
  if (colon != std::string_view::npos) {
    std::string name(line.substr(0, colon));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string value = TrimCopy(line.substr(colon + 1));
    if (name == "etag") sink->etag = value;
    if (name == "content-length") sink->content_length = std::atoll(value.c_str());
    if (name == "last-modified") sink->last_modified = value;
  }
  return size * n;
}

struct UploadSource {
  std::string_view data;
  size_t pos = 0;
};

size_t ReadBody(char* buffer, size_t size, size_t n, void* user) {
  auto* src = static_cast<UploadSource*>(user);
  size_t k = std::min(size * n, src->data.size() - src->pos);
  std::memcpy(buffer, src->data.data() + src->pos, k);
  src->pos += k;
  return k;
}

std::string StripQuotes(std::string s) {
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') return s.substr(1, s.size() - 2);
  if (s.size() >= 12 && s.rfind("&quot;", 0) == 0) return s.substr(6, s.size() - 12);
  return s;
}

std::string XmlUnescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out.push_back(s[i]);
      continue;
    }
    size_t semi = s.find(';', i);
    if (semi == std::string_view::npos) {
      out.push_back(s[i]);
      continue;
    }
    std::string_view entity = s.substr(i + 1, semi - i - 1);
    if (entity == "amp") out.push_back('&');
    else if (entity == "lt") out.push_back('<');
    else if (entity == "gt") out.push_back('>');
    else if (entity == "quot") out.push_back('"');
    else if (entity == "apos") out.push_back('\'');
    else if (!entity.empty() && entity[0] == '#') {
      long code = entity.size() > 1 && entity[1] == 'x' ? std::strtol(std::string(entity.substr(2)).c_str(), nullptr, 16)
                                                         : std::strtol(std::string(entity.substr(1)).c_str(), nullptr, 10);
      if (code > 0 && code < 128) out.push_back(static_cast<char>(code));
    } else {
      out.append(s.substr(i, semi - i + 1));
    }
    i = semi;
  }
  return out;
}

std::string XmlEscape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

/// The text of every <tag>...</tag> in `xml` (flat; S3's responses nest simply).
std::vector<std::string_view> XmlAll(std::string_view xml, std::string_view tag) {
  std::vector<std::string_view> out;
  std::string open = "<" + std::string(tag) + ">";
  std::string close = "</" + std::string(tag) + ">";
  size_t pos = 0;
  while ((pos = xml.find(open, pos)) != std::string_view::npos) {
    size_t start = pos + open.size();
    size_t end = xml.find(close, start);
    if (end == std::string_view::npos) break;
    out.push_back(xml.substr(start, end - start));
    pos = end + close.size();
  }
  return out;
}

std::string XmlFirst(std::string_view xml, std::string_view tag) {
  auto all = XmlAll(xml, tag);
  return all.empty() ? "" : XmlUnescape(all[0]);
}

/// "2026-08-17T09:05:00.000Z" into nanoseconds.
int64_t ParseIsoTime(const std::string& text) {
  int64_t micros = 0;
  std::string t = text;
  if (!t.empty() && t.back() == 'Z') t.pop_back();
  if (!ParseTimestamp(t, &micros, /*allow_iso=*/true)) return 0;
  return micros * 1000;
}

/// "Mon, 17 Aug 2026 09:05:00 GMT" into nanoseconds.
int64_t ParseHttpDate(const std::string& text) {
  static const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                  "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char month[4] = {0};
  int day = 0, year = 0, hh = 0, mm = 0, ss = 0;
  if (std::sscanf(text.c_str(), "%*3s, %d %3s %d %d:%d:%d", &day, month, &year, &hh, &mm, &ss) != 6) return 0;
  for (int m = 0; m < 12; ++m) {
    if (std::string_view(month) == kMonths[m]) {
      int64_t days = DaysFromCivil(year, static_cast<unsigned>(m + 1), static_cast<unsigned>(day));
      return ((days * 86400 + hh * 3600 + mm * 60 + ss) * 1000000000LL);
    }
  }
  return 0;
}

std::string Base64Md5(std::string_view body) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(body.data(), body.size(), digest, &len, EVP_md5(), nullptr);
  static const char* kChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (unsigned int i = 0; i < len; i += 3) {
    uint32_t v = static_cast<uint32_t>(digest[i]) << 16;
    if (i + 1 < len) v |= static_cast<uint32_t>(digest[i + 1]) << 8;
    if (i + 2 < len) v |= digest[i + 2];
    out.push_back(kChars[(v >> 18) & 63]);
    out.push_back(kChars[(v >> 12) & 63]);
    out.push_back(i + 1 < len ? kChars[(v >> 6) & 63] : '=');
    out.push_back(i + 2 < len ? kChars[v & 63] : '=');
  }
  return out;
}

}  // namespace

std::string UriEncode(std::string_view text, bool keep_slash) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || (keep_slash && c == '/')) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

S3Client::S3Client(S3Config config) : config_(std::move(config)) {
  std::call_once(g_curl_init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

S3Client::~S3Client() {
  for (void* h : idle_handles_) curl_easy_cleanup(static_cast<CURL*>(h));
}

Result<std::shared_ptr<S3Client>> S3Client::Default() {
  static std::mutex mu;
  static std::shared_ptr<S3Client> client;
  std::lock_guard lock(mu);
  if (client == nullptr) {
    EPOXY_ASSIGN_OR_RETURN(S3Config config, S3Config::FromEnvironment());
    client = std::make_shared<S3Client>(std::move(config));
  }
  return client;
}

void* S3Client::AcquireHandle() {
  std::unique_lock lock(mu_);
  slot_free_.wait(lock, [this] { return in_flight_ < config_.max_parallel_requests; });
  ++in_flight_;
  if (!idle_handles_.empty()) {
    void* h = idle_handles_.back();
    idle_handles_.pop_back();
    return h;
  }
  return curl_easy_init();
}

void S3Client::ReleaseHandle(void* handle) {
  {
    std::lock_guard lock(mu_);
    --in_flight_;
    idle_handles_.push_back(handle);  // keeps its connection alive for the next request
  }
  slot_free_.notify_one();
}

std::string S3Client::Url(const std::string& bucket, const std::string& key,
                          const std::string& query) const {
  std::string url;
  if (config_.path_style) {
    url = config_.endpoint + "/" + UriEncode(bucket, false) + "/" + UriEncode(key, true);
  } else {
    size_t scheme = config_.endpoint.find("://");
    url = config_.endpoint.substr(0, scheme + 3) + bucket + "." + config_.endpoint.substr(scheme + 3) +
          "/" + UriEncode(key, true);
  }
  if (!query.empty()) url += "?" + query;
  return url;
}

Result<S3Client::Response> S3Client::PerformOnce(const Request& request, bool* retryable) {
  *retryable = false;
  CURL* curl = static_cast<CURL*>(AcquireHandle());
  struct Release {
    S3Client* self;
    CURL* curl;
    ~Release() { self->ReleaseHandle(curl); }
  } release{this, curl};
  curl_easy_reset(curl);
  std::string url = Url(request.bucket, request.key, request.query);
  Response response;
  HeaderSink headers;
  UploadSource upload{request.body, 0};
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, config_.connect_timeout_ms);
  // A transfer slower than 1 byte/s for the read timeout is abandoned (a server that stops).
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, std::max(1L, config_.read_timeout_ms / 1000));
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, AppendBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response.body);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, ReadHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &headers);
  std::string sigv4 = "aws:amz:" + config_.region + ":s3";
  std::string userpwd = config_.access_key + ":" + config_.secret_key;
  if (!config_.access_key.empty()) {
    curl_easy_setopt(curl, CURLOPT_AWS_SIGV4, sigv4.c_str());
    curl_easy_setopt(curl, CURLOPT_USERPWD, userpwd.c_str());
  }
  struct curl_slist* list = nullptr;
  list = curl_slist_append(list, "x-amz-content-sha256: UNSIGNED-PAYLOAD");
  if (!config_.session_token.empty()) {
    list = curl_slist_append(list, ("x-amz-security-token: " + config_.session_token).c_str());
  }
  for (const auto& h : request.headers) list = curl_slist_append(list, h.c_str());
  std::string range;
  if (request.range) {
    range = fmt::format("Range: bytes={}-{}", request.range->first, request.range->second);
    list = curl_slist_append(list, range.c_str());
  }
  if (request.method == "PUT" || request.method == "POST") {
    list = curl_slist_append(list, "Expect:");  // no 100-continue round trip
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, ReadBody);
    curl_easy_setopt(curl, CURLOPT_READDATA, &upload);
    curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    if (request.method == "POST") curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, "POST");
  } else if (request.method == "HEAD") {
    curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
  } else if (request.method != "GET") {
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  }
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
  CURLcode rc = curl_easy_perform(curl);
  curl_slist_free_all(list);
  if (rc != CURLE_OK) {
    *retryable = rc != CURLE_URL_MALFORMAT && rc != CURLE_UNSUPPORTED_PROTOCOL &&
                 rc != CURLE_COULDNT_RESOLVE_HOST;
    return Status::IOError("{}", curl_easy_strerror(rc));
  }
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
  response.etag = StripQuotes(headers.etag);
  response.content_length = headers.content_length;
  response.last_modified = headers.last_modified;
  if (response.status >= 500 || response.status == 429) *retryable = true;
  return response;
}

Result<S3Client::Response> S3Client::Perform(const Request& request, const std::string& what) {
  std::mt19937_64 rng(std::random_device{}());
  Status last;
  for (int attempt = 0; attempt < std::max(1, config_.max_attempts); ++attempt) {
    if (attempt > 0) {
      // Exponential backoff with full jitter, capped at 5 s.
      int64_t cap = std::min<int64_t>(5000, 100LL << std::min(attempt, 10));
      std::this_thread::sleep_for(std::chrono::milliseconds(rng() % static_cast<uint64_t>(cap + 1)));
    }
    bool retryable = false;
    auto response = PerformOnce(request, &retryable);
    if (!response.ok()) {
      last = Status::IOError("{}: {}", what, response.status().message());
      if (!retryable) return last;
      continue;
    }
    if (response->status >= 200 && response->status < 300) return response;
    std::string code = XmlFirst(response->body, "Code");
    std::string message = XmlFirst(response->body, "Message");
    if (code.empty()) {
      code = response->status == 404 ? (request.key.empty() ? "NoSuchBucket" : "NoSuchKey")
                                      : fmt::format("HTTP {}", response->status);
    }
    std::string text = fmt::format("{}: {}{}{}", what, code, message.empty() ? "" : ": ", message);
    if (retryable) {
      last = Status::IOError("{} (HTTP {})", text, response->status);
      continue;
    }
    if (response->status == 404) return Status::NotFound("{}", text);
    if (response->status == 403) return Status::IOError("{} (access denied: check the credentials)", text);
    return Status::IOError("{} (HTTP {})", text, response->status);
  }
  return Status::IOError("{} (gave up after {} attempts)", last.message(), config_.max_attempts);
}

Result<S3Listing> S3Client::List(const std::string& bucket, const std::string& prefix,
                                 const std::string& delimiter) {
  S3Listing listing;
  std::string token;
  while (true) {
    std::string query;
    if (!token.empty()) query += "continuation-token=" + UriEncode(token, false) + "&";
    if (!delimiter.empty()) query += "delimiter=" + UriEncode(delimiter, false) + "&";
    query += "list-type=2";
    if (!prefix.empty()) query += "&prefix=" + UriEncode(prefix, false);
    Request r;
    r.bucket = bucket;
    r.query = query;
    EPOXY_ASSIGN_OR_RETURN(Response response, Perform(r, fmt::format("listing s3://{}/{}", bucket, prefix)));
    for (std::string_view item : XmlAll(response.body, "Contents")) {
      S3Object o;
      o.key = XmlFirst(item, "Key");
      o.size = std::atoll(XmlFirst(item, "Size").c_str());
      o.etag = StripQuotes(XmlFirst(item, "ETag"));
      o.mtime_ns = ParseIsoTime(XmlFirst(item, "LastModified"));
      listing.objects.push_back(std::move(o));
    }
    for (std::string_view item : XmlAll(response.body, "CommonPrefixes")) {
      listing.common_prefixes.push_back(XmlFirst(item, "Prefix"));
    }
    if (XmlFirst(response.body, "IsTruncated") != "true") break;
    token = XmlFirst(response.body, "NextContinuationToken");
    if (token.empty()) return Status::IOError("listing s3://{}/{}: truncated without a continuation token", bucket, prefix);
  }
  return listing;
}

Result<S3Object> S3Client::Head(const std::string& bucket, const std::string& key) {
  Request r;
  r.method = "HEAD";
  r.bucket = bucket;
  r.key = key;
  EPOXY_ASSIGN_OR_RETURN(Response response, Perform(r, fmt::format("s3://{}/{}", bucket, key)));
  S3Object o;
  o.key = key;
  o.size = response.content_length;
  o.etag = response.etag;
  o.mtime_ns = ParseHttpDate(response.last_modified);
  return o;
}

Result<std::string> S3Client::Get(const std::string& bucket, const std::string& key, int64_t offset,
                                  int64_t length) {
  if (length <= 0) return std::string();
  Request r;
  r.bucket = bucket;
  r.key = key;
  r.range = std::make_pair(offset, offset + length - 1);
  EPOXY_ASSIGN_OR_RETURN(Response response, Perform(r, fmt::format("reading s3://{}/{}", bucket, key)));
  if (static_cast<int64_t>(response.body.size()) > length) response.body.resize(static_cast<size_t>(length));
  return std::move(response.body);
}

Status S3Client::Put(const std::string& bucket, const std::string& key, std::string_view body) {
  Request r;
  r.method = "PUT";
  r.bucket = bucket;
  r.key = key;
  r.body = body;
  return Perform(r, fmt::format("writing s3://{}/{}", bucket, key)).status();
}

Result<std::string> S3Client::CreateMultipartUpload(const std::string& bucket, const std::string& key) {
  Request r;
  r.method = "POST";
  r.bucket = bucket;
  r.key = key;
  r.query = "uploads=";
  EPOXY_ASSIGN_OR_RETURN(Response response, Perform(r, fmt::format("starting an upload to s3://{}/{}", bucket, key)));
  std::string id = XmlFirst(response.body, "UploadId");
  if (id.empty()) return Status::IOError("starting an upload to s3://{}/{}: no UploadId in the answer", bucket, key);
  return id;
}

Result<std::string> S3Client::UploadPart(const std::string& bucket, const std::string& key,
                                         const std::string& upload_id, int part_number,
                                         std::string_view body) {
  Request r;
  r.method = "PUT";
  r.bucket = bucket;
  r.key = key;
  r.query = fmt::format("partNumber={}&uploadId={}", part_number, UriEncode(upload_id, false));
  r.body = body;
  EPOXY_ASSIGN_OR_RETURN(Response response,
                         Perform(r, fmt::format("uploading part {} of s3://{}/{}", part_number, bucket, key)));
  return response.etag;
}

Status S3Client::CompleteMultipartUpload(const std::string& bucket, const std::string& key,
                                         const std::string& upload_id,
                                         const std::vector<std::string>& etags) {
  std::string body = "<CompleteMultipartUpload>";
  for (size_t i = 0; i < etags.size(); ++i) {
    body += fmt::format("<Part><PartNumber>{}</PartNumber><ETag>\"{}\"</ETag></Part>", i + 1, XmlEscape(etags[i]));
  }
  body += "</CompleteMultipartUpload>";
  Request r;
  r.method = "POST";
  r.bucket = bucket;
  r.key = key;
  r.query = "uploadId=" + UriEncode(upload_id, false);
  r.body = body;
  EPOXY_ASSIGN_OR_RETURN(Response response, Perform(r, fmt::format("completing the upload of s3://{}/{}", bucket, key)));
  // S3 may answer 200 with an error document.
  if (response.body.find("<Error>") != std::string::npos) {
    return Status::IOError("completing the upload of s3://{}/{}: {}", bucket, key, XmlFirst(response.body, "Message"));
  }
  return Status::OK();
}

Status S3Client::AbortMultipartUpload(const std::string& bucket, const std::string& key,
                                      const std::string& upload_id) {
  Request r;
  r.method = "DELETE";
  r.bucket = bucket;
  r.key = key;
  r.query = "uploadId=" + UriEncode(upload_id, false);
  return Perform(r, fmt::format("aborting the upload of s3://{}/{}", bucket, key)).status();
}

Status S3Client::DeleteObjects(const std::string& bucket, const std::vector<std::string>& keys) {
  for (size_t start = 0; start < keys.size(); start += 1000) {
    std::string body = "<Delete><Quiet>true</Quiet>";
    for (size_t i = start; i < std::min(keys.size(), start + 1000); ++i) {
      body += "<Object><Key>" + XmlEscape(keys[i]) + "</Key></Object>";
    }
    body += "</Delete>";
    Request r;
    r.method = "POST";
    r.bucket = bucket;
    r.query = "delete=";
    r.body = body;
    r.headers.push_back("Content-MD5: " + Base64Md5(body));
    r.headers.push_back("Content-Type: application/xml");
    EPOXY_ASSIGN_OR_RETURN(Response response, Perform(r, fmt::format("deleting objects in s3://{}", bucket)));
    auto errors = XmlAll(response.body, "Error");
    if (!errors.empty()) {
      return Status::IOError("deleting s3://{}/{}: {}", bucket, XmlFirst(errors[0], "Key"), XmlFirst(errors[0], "Message"));
    }
  }
  return Status::OK();
}

Status S3Client::CopyObject(const std::string& bucket, const std::string& from_key, const std::string& to_key) {
  Request r;
  r.method = "PUT";
  r.bucket = bucket;
  r.key = to_key;
  r.headers.push_back("x-amz-copy-source: /" + UriEncode(bucket, false) + "/" + UriEncode(from_key, true));
  EPOXY_ASSIGN_OR_RETURN(Response response, Perform(r, fmt::format("copying s3://{}/{} to {}", bucket, from_key, to_key)));
  if (response.body.find("<Error>") != std::string::npos) {
    return Status::IOError("copying s3://{}/{}: {}", bucket, from_key, XmlFirst(response.body, "Message"));
  }
  return Status::OK();
}

Status S3Client::CreateBucket(const std::string& bucket) {
  Request r;
  r.method = "PUT";
  r.bucket = bucket;
  return Perform(r, fmt::format("creating bucket {}", bucket)).status();
}

}  // namespace epoxy
