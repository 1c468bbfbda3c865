// SPDX-License-Identifier: Apache-2.0
// The standard named grok patterns. The names are the ones grok users know (and Glue documents);
// the expressions are written for RE2, which has no backreferences or lookaround.
#include "epoxy/format/grok/grok_pattern.h"

namespace epoxy::grok {

std::string_view StandardGrokPatterns() {
  static constexpr std::string_view kPatterns = R"GROK(
# words and numbers
USERNAME [a-zA-Z0-9._-]+
USER %{USERNAME}
INT [+-]?[0-9]+
BASE10NUM [+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)
NUMBER %{BASE10NUM}
BASE16NUM [+-]?(?:0[xX])?[0-9A-Fa-f]+
BASE16FLOAT [+-]?(?:0[xX])?(?:[0-9A-Fa-f]+(?:\.[0-9A-Fa-f]*)?|\.[0-9A-Fa-f]+)
POSINT [1-9][0-9]*
NONNEGINT [0-9]+
WORD \b\w+\b
NOTSPACE \S+
SPACE \s*
DATA .*?
GREEDYDATA .*
QUOTEDSTRING "(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`
QS %{QUOTEDSTRING}
UUID [A-Fa-f0-9]{8}-[A-Fa-f0-9]{4}-[A-Fa-f0-9]{4}-[A-Fa-f0-9]{4}-[A-Fa-f0-9]{12}
EMAILLOCALPART [a-zA-Z0-9][a-zA-Z0-9_.+-]*
EMAILADDRESS %{EMAILLOCALPART}@%{HOSTNAME}
# networking
CISCOMAC [A-Fa-f0-9]{4}\.[A-Fa-f0-9]{4}\.[A-Fa-f0-9]{4}
WINDOWSMAC [A-Fa-f0-9]{2}(?:-[A-Fa-f0-9]{2}){5}
COMMONMAC [A-Fa-f0-9]{2}(?::[A-Fa-f0-9]{2}){5}
MAC %{CISCOMAC}|%{WINDOWSMAC}|%{COMMONMAC}
IPV4OCTET 25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9]
IPV4 \b(?:%{IPV4OCTET})(?:\.(?:%{IPV4OCTET})){3}\b
IPV6 (?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}|(?:[0-9A-Fa-f]{1,4}:){1,7}:|(?:[0-9A-Fa-f]{1,4}:){0,6}(?::[0-9A-Fa-f]{1,4}){1,6}|::(?:ffff:)?%{IPV4}|::
IP %{IPV6}|%{IPV4}
HOSTNAME \b[0-9A-Za-z][0-9A-Za-z-]{0,62}(?:\.[0-9A-Za-z][0-9A-Za-z-]{0,62})*\.?\b
HOST %{HOSTNAME}
IPORHOST %{IP}|%{HOSTNAME}
HOSTPORT %{IPORHOST}:%{POSINT}
# paths and URIs
UNIXPATH (?:/[^/\s]*)+
WINPATH (?:[A-Za-z]:|\\)(?:\\[^\\?*\s]*)+
PATH %{UNIXPATH}|%{WINPATH}
TTY /dev/[A-Za-z0-9/]+
URIPROTO [A-Za-z][A-Za-z0-9+.-]*
URIHOST %{IPORHOST}(?::%{POSINT})?
URIPATH (?:/[A-Za-z0-9$.+!*'(){},~:;=@#%&_-]*)+
URIPARAM \?[A-Za-z0-9$.+!*'|(){},~@#%&/=:;_?\[\]<>-]*
URIPATHPARAM %{URIPATH}(?:%{URIPARAM})?
URI %{URIPROTO}://(?:%{USER}(?::[^@]*)?@)?(?:%{URIHOST})?(?:%{URIPATHPARAM})?
# dates and times
MONTH \b(?:[Jj]an(?:uary)?|[Ff]eb(?:ruary)?|[Mm]ar(?:ch)?|[Aa]pr(?:il)?|[Mm]ay|[Jj]un(?:e)?|[Jj]ul(?:y)?|[Aa]ug(?:ust)?|[Ss]ep(?:t|tember)?|[Oo]ct(?:ober)?|[Nn]ov(?:ember)?|[Dd]ec(?:ember)?)\b
MONTHNUM 0?[1-9]|1[0-2]
MONTHNUM2 0[1-9]|1[0-2]
MONTHDAY 0[1-9]|[12][0-9]|3[01]|[1-9]
DAY \b(?:Mon(?:day)?|Tue(?:sday)?|Wed(?:nesday)?|Thu(?:rsday)?|Fri(?:day)?|Sat(?:urday)?|Sun(?:day)?)\b
YEAR [0-9]{4}|[0-9]{2}
HOUR 2[0-3]|[01]?[0-9]
MINUTE [0-5][0-9]
SECOND (?:[0-5]?[0-9]|60)(?:[:.,][0-9]+)?
TIME %{HOUR}:%{MINUTE}(?::%{SECOND})?
DATE_US %{MONTHNUM}[/-]%{MONTHDAY}[/-]%{YEAR}
DATE_EU %{MONTHDAY}[./-]%{MONTHNUM}[./-]%{YEAR}
DATE %{DATE_US}|%{DATE_EU}
DATESTAMP %{DATE}[- ]%{TIME}
ISO8601_TIMEZONE Z|[+-](?:%{HOUR})(?::?(?:%{MINUTE}))?
ISO8601_SECOND %{SECOND}
TIMESTAMP_ISO8601 %{YEAR}-%{MONTHNUM}-%{MONTHDAY}[T ]%{HOUR}:?%{MINUTE}(?::?%{SECOND})?(?:%{ISO8601_TIMEZONE})?
TZ [A-Z]{3,4}
DATESTAMP_RFC822 %{DAY} %{MONTH} %{MONTHDAY} %{YEAR} %{TIME} %{TZ}
DATESTAMP_RFC2822 %{DAY}, %{MONTHDAY} %{MONTH} %{YEAR} %{TIME} %{ISO8601_TIMEZONE}
DATESTAMP_OTHER %{DAY} %{MONTH} %{MONTHDAY} %{TIME} %{TZ} %{YEAR}
DATESTAMP_EVENTLOG [0-9]{14}
HTTPDATE %{MONTHDAY}/%{MONTH}/%{YEAR}:%{TIME} %{INT}
SYSLOGTIMESTAMP %{MONTH} +%{MONTHDAY} %{TIME}
# logs
LOGLEVEL \b(?:[Aa]lert|ALERT|[Tt]race|TRACE|[Dd]ebug|DEBUG|[Nn]otice|NOTICE|[Ii]nfo|INFO|[Ww]arn(?:ing)?|WARN(?:ING)?|[Ee]rr(?:or)?|ERR(?:OR)?|[Cc]rit(?:ical)?|CRIT(?:ICAL)?|[Ff]atal|FATAL|[Ss]evere|SEVERE|[Ee]merg(?:ency)?|EMERG(?:ENCY)?)\b
PROG [\x21-\x5a\x5c\x5e-\x7e]+
SYSLOGPROG %{PROG:program}(?:\[%{POSINT:pid}\])?
SYSLOGHOST %{IPORHOST}
SYSLOGFACILITY <%{NONNEGINT:facility}\.%{NONNEGINT:priority}>
SYSLOGBASE %{SYSLOGTIMESTAMP:timestamp} (?:%{SYSLOGFACILITY} )?%{SYSLOGHOST:logsource} %{SYSLOGPROG}:
COMMONAPACHELOG %{IPORHOST:clientip} %{USER:ident} %{USER:auth} \[%{HTTPDATE:timestamp}\] "(?:%{WORD:verb} %{NOTSPACE:request}(?: HTTP/%{NUMBER:httpversion})?|%{DATA:rawrequest})" %{NUMBER:response} (?:%{NUMBER:bytes}|-)
COMBINEDAPACHELOG %{COMMONAPACHELOG} %{QS:referrer} %{QS:agent}
)GROK";
  return kPatterns;
}

}  // namespace epoxy::grok
