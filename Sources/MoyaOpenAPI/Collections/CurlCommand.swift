import MoyaHTTP

/// One curl command line read as curl reads it: the request it sends, and each option that
/// has no place in a spec, with why. Only what reaches the wire is carried; nothing is run and
/// no file the command names is read.
struct CurlCommand {
    typealias Word = ShellWords.Word

    /// A header as `-H` gives it, its value a word (it may hold `$VAR`).
    struct Header {
        var name: String
        var value: Word
    }

    /// A part of `-F`.
    struct FormPart {
        var name: String
        var value: Word
        /// `name=@file`: the file's path, sent as a file part.
        var isFile: Bool
        var mimeType: String?
    }

    enum Body {
        /// `-d`, `--data-*`, `--json`: the bytes, joined as curl joins them.
        case data([Word])
        /// `-F`: a multipart form.
        case form([FormPart])
    }

    /// An option left out, where it is, and why.
    struct Left {
        var line: Int
        var option: String
        var reason: String
    }

    var line: Int
    var method: String?
    var url: Word?
    var headers: [Header] = []
    var body: Body?
    /// `--json` given: its headers are added unless `-H` sets them.
    var isJSON = false
    /// `-G`: the data goes into the query.
    var dataInQuery = false
    var user: Word?
    var bearer: Word?
    var cookies: [Word] = []
    /// `-I`.
    var head = false
    /// `-m`, in seconds.
    var timeout: Double?
    var retry: Int?
    var leftOut: [Left] = []

    // MARK: - Options

    /// Long options that take a value, as curl 8 has them.
    static let longWithValue: Set<String> = [
        "abstract-unix-socket", "alt-svc", "aws-sigv4", "cacert", "capath", "cert", "cert-type", "ciphers",
        "config", "connect-timeout", "connect-to", "continue-at", "cookie", "cookie-jar", "create-file-mode",
        "crlfile", "curves", "data", "data-ascii", "data-binary", "data-raw", "data-urlencode", "delegation",
        "dns-interface", "dns-ipv4-addr", "dns-ipv6-addr", "dns-servers", "doh-url", "dump-header", "ech",
        "egd-file", "engine", "etag-compare", "etag-save", "expect100-timeout", "form", "form-string",
        "ftp-account", "ftp-alternative-to-user", "ftp-method", "ftp-port", "ftp-ssl-ccc-mode",
        "happy-eyeballs-timeout-ms",
        "haproxy-clientip", "header", "hostpubmd5", "hostpubsha256", "hsts", "interface", "ip-tos", "json",
        "keepalive-cnt", "keepalive-time", "key", "key-type", "krb", "libcurl", "limit-rate", "local-port",
        "login-options", "mail-auth", "mail-from", "mail-rcpt", "max-filesize", "max-redirs", "max-time",
        "netrc-file", "noproxy", "oauth2-bearer", "output", "output-dir", "pass", "pinnedpubkey", "preproxy",
        "proto", "proto-default", "proto-redir", "proxy", "proxy-cacert", "proxy-capath", "proxy-cert",
        "proxy-cert-type", "proxy-ciphers", "proxy-crlfile", "proxy-header", "proxy-key", "proxy-key-type",
        "proxy-pass", "proxy-pinnedpubkey", "proxy-service-name", "proxy-tls13-ciphers", "proxy-tlsauthtype",
        "proxy-tlspassword", "proxy-tlsuser", "proxy-user", "proxy1.0", "pubkey", "quote", "random-file",
        "range", "rate", "referer", "request", "request-target", "resolve", "retry", "retry-delay",
        "retry-max-time", "sasl-authzid", "service-name", "socks4", "socks4a", "socks5", "socks5-gssapi-service",
        "socks5-hostname", "speed-limit", "speed-time", "stderr", "telnet-option", "tftp-blksize", "time-cond",
        "tls-max", "tls13-ciphers", "tlsauthtype", "tlspassword", "tlsuser", "trace", "trace-ascii",
        "trace-config", "unix-socket", "upload-file", "url", "url-query", "user", "user-agent", "variable",
        "vlan-priority", "write-out",
    ]

    /// Short options that take a value, and the long option each stands for.
    static let shortWithValue: [Character: String] = [
        "A": "user-agent", "b": "cookie", "c": "cookie-jar", "C": "continue-at", "d": "data", "D": "dump-header",
        "e": "referer", "E": "cert", "F": "form", "H": "header", "K": "config", "m": "max-time", "o": "output",
        "P": "ftp-port", "Q": "quote", "r": "range", "t": "telnet-option", "T": "upload-file", "u": "user",
        "U": "proxy-user", "w": "write-out", "x": "proxy", "X": "request", "y": "speed-time", "Y": "speed-limit",
        "z": "time-cond",
    ]

    /// Short flags, and the long option each stands for.
    static let shortFlags: [Character: String] = [
        "#": "progress-bar", "0": "http1.0", "1": "tlsv1", "2": "sslv2", "3": "sslv3", "4": "ipv4", "6": "ipv6",
        "a": "append", "B": "use-ascii", "f": "fail", "g": "globoff", "G": "get", "h": "help", "i": "include",
        "I": "head", "j": "junk-session-cookies", "J": "remote-header-name", "k": "insecure", "l": "list-only",
        "L": "location", "M": "manual", "n": "netrc", "N": "no-buffer", "O": "remote-name", "p": "proxytunnel",
        "q": "disable", "R": "remote-time", "s": "silent", "S": "show-error", "v": "verbose", "V": "version",
        "Z": "parallel",
    ]

    /// Options that change only what curl prints or where it writes it, never the request.
    static let output: Set<String> = [
        "silent", "show-error", "verbose", "include", "output", "remote-name", "remote-header-name",
        "progress-bar", "no-progress-meter", "write-out", "dump-header", "trace", "trace-ascii", "trace-time",
        "trace-ids", "trace-config", "stderr", "no-buffer", "fail", "fail-with-body", "fail-early", "output-dir",
        "create-dirs", "styled-output", "no-styled-output", "remote-time", "libcurl", "create-file-mode",
        "remove-on-error", "clobber", "no-clobber", "xattr", "raw", "ascii", "mute",
    ]

    /// Options of the call rather than of the request, and what to do instead.
    static let callOptions: [String: String] = [
        "insecure": "pass --insecure to moya-cli call",
        "cacert": "pass --cacert FILE to moya-cli call",
        "cert": "pass --cert FILE (and --key) to moya-cli call",
        "key": "pass --key FILE to moya-cli call",
        "proxy": "pass --proxy URL to moya-cli call",
        "connect-timeout": "pass --connect-timeout SECONDS to moya-cli call",
        "max-redirs": "pass --max-redirects N to moya-cli call",
        "location": "moya-cli follows redirects unless the target says followRedirects: false",
        "http1.1": "moya-cli speaks HTTP/1.1",
        "http2": "moya-cli speaks HTTP/1.1",
        "retry-delay": "moya-cli waits between retries as Retry-After or its backoff says",
        "retry-max-time": "moya-cli waits between retries as Retry-After or its backoff says",
        "basic": "-u sends Basic credentials, as moya-cli's basic auth does",
        "globoff": "the URL is read as written; moya-cli has no URL globbing",
    ]

    // MARK: - Reading

    /// Reads `words` (the first is `curl`) as curl does.
    init(_ words: [Word], line: Int) {
        self.line = line
        var index = 1
        var endOfOptions = false
        while index < words.count {
            let word = words[index]
            index += 1
            let text = word.text
            if endOfOptions || !text.hasPrefix("-") || text == "-" {
                take(url: word)
                continue
            }
            if text == "--" {
                endOfOptions = true
                continue
            }
            if text.hasPrefix("--") {
                var name = String(text.dropFirst(2))
                var value: Word?
                // curl takes no `--name=value`; the `=` is part of the name, which it refuses.
                if name.hasPrefix("no-"), !Self.longWithValue.contains(name), !Self.output.contains(name) {
                    name = String(name.dropFirst(3))
                    note(word, "--no-\(name)", "a negated option is left out: moya-cli's default holds")
                    continue
                }
                if Self.longWithValue.contains(name) {
                    guard index < words.count else {
                        note(word, "--\(name)", "it has no value")
                        continue
                    }
                    value = words[index]
                    index += 1
                }
                take(option: name, written: "--\(name)", value: value, at: word)
                continue
            }
            // Short options, clustered (`-sSL`), a value attached (`-XPOST`) or the next word.
            var offset = 1
            let characters = Array(text)
            while offset < characters.count {
                let letter = characters[offset]
                if let name = Self.shortWithValue[letter] {
                    let value: Word?
                    if offset + 1 < characters.count {
                        value = word.dropping(offset + 1)
                    } else if index < words.count {
                        value = words[index]
                        index += 1
                    } else {
                        value = nil
                    }
                    if let value {
                        take(option: name, written: "-\(letter)", value: value, at: word)
                    } else {
                        note(word, "-\(letter)", "it has no value")
                    }
                    break
                }
                if let name = Self.shortFlags[letter] {
                    take(option: name, written: "-\(letter)", value: nil, at: word)
                } else {
                    note(word, "-\(letter)", "curl has no such option")
                }
                offset += 1
            }
        }
    }

    mutating func note(_ word: Word, _ option: String, _ reason: String) {
        leftOut.append(Left(line: word.line, option: option, reason: reason))
    }

    mutating func take(url word: Word) {
        if url == nil {
            url = word
        } else {
            note(
                word, word.text,
                "a second URL makes a second request, which one target cannot hold; import it as its own curl line")
        }
    }

    mutating func take(option name: String, written: String, value: Word?, at word: Word) {
        switch (name, value) {
        case ("request", let value?):
            method = value.text.uppercased()
        case ("url", let value?):
            take(url: value)
        case ("header", let value?):
            header(value, written: written)
        case ("data", let value?), ("data-ascii", let value?):
            data(value, written: written)
        case ("data-binary", let value?):
            data(value, written: written)
        case ("data-raw", let value?):
            appendData(value)
        case ("data-urlencode", let value?):
            urlencoded(value, written: written)
        case ("json", let value?):
            isJSON = true
            if value.text.hasPrefix("@") {
                note(
                    word, written,
                    "it reads a file (\(value.text)), which an import never does; put the body in the target's task")
            } else if case .data(var parts) = body {
                // Several --json are sent as one text, without a separator.
                parts.append(value)
                body = .data(parts)
            } else {
                body = .data([value])
            }
        case ("form", let value?):
            form(value, written: written, literal: false)
        case ("form-string", let value?):
            form(value, written: written, literal: true)
        case ("user", let value?):
            user = value
        case ("oauth2-bearer", let value?):
            bearer = value
        case ("cookie", let value?):
            if value.text.contains("=") {
                cookies.append(value)
            } else {
                note(word, written, "it reads cookies from a file (\(value.text)), which an import never does")
            }
        case ("user-agent", let value?):
            headers.append(Header(name: "User-Agent", value: value))
        case ("referer", let value?):
            // `;auto` asks curl to set the referer on redirects; the header is the text before it.
            let text = value.text
            if let auto = text.range(of: ";auto") {
                headers.append(
                    Header(
                        name: "Referer",
                        value: Word(pieces: [.text(String(text[..<auto.lowerBound]))], line: value.line)))
            } else {
                headers.append(Header(name: "Referer", value: value))
            }
        case ("get", nil):
            dataInQuery = true
        case ("head", nil):
            head = true
        case ("max-time", let value?):
            if let seconds = Double(value.text), seconds > 0, seconds <= 86_400 {
                timeout = seconds
            } else {
                note(word, written, "\(value.text) is not a number of seconds up to a day")
            }
        case ("retry", let value?):
            if let count = Int(value.text), (0...100).contains(count) {
                retry = count
            } else {
                note(word, written, "\(value.text) is not a count from 0 to 100")
            }
        case ("upload-file", let value?):
            note(word, written, "it sends a file (\(value.text)); write the target's task as upload: with a file param")
        case ("url-query", let value?):
            note(word, written, "it adds \(value.text) to the query; put it in the URL")
        case ("aws-sigv4", _):
            note(word, written, "moya-cli does not sign requests with AWS SigV4 yet")
        case ("digest", _), ("ntlm", _), ("negotiate", _), ("anyauth", _):
            note(word, written, "moya-cli's auth is basic or bearer; this scheme is not carried")
        case ("config", _):
            note(word, written, "it reads options from a file, which an import never does")
        case ("variable", _):
            note(word, written, "curl's --variable is not carried; use ${VAR} in the spec")
        case ("compressed", nil):
            // moya-cli asks for gzip and deflate and decodes the answer, as --compressed does.
            break
        default:
            if Self.output.contains(name) {
                note(word, written, "it changes what curl prints, not the request")
            } else if let instead = Self.callOptions[name] {
                note(word, written, instead)
            } else if name == "help" || name == "version" || name == "manual" {
                note(word, written, "it makes curl print its own text, not send a request")
            } else {
                note(word, written, "it is not part of a spec")
            }
        }
    }

    mutating func header(_ value: Word, written: String) {
        let text = value.text
        // `Name;` sends the header empty; `Name:` with nothing after takes curl's own away.
        if text.hasSuffix(";"), !text.contains(":") {
            headers.append(Header(name: String(text.dropLast()), value: Word(pieces: [], line: value.line)))
            return
        }
        guard let colon = text.firstIndex(of: ":") else {
            note(value, written, "\(text) is not a header (Name: value)")
            return
        }
        let name = Self.trimmed(text[..<colon])
        guard !name.isEmpty else {
            note(value, written, "\(text) has no header name")
            return
        }
        // The value: the word after the colon and the blanks after it, its variables kept.
        var skip = text.distance(from: text.startIndex, to: colon) + 1
        let rest = text[text.index(after: colon)...]
        skip += rest.prefix { $0 == " " || $0 == "\t" }.count
        var headerValue = value.dropping(skip)
        if headerValue.pieces.isEmpty {
            note(value, written, "\(name): with no value takes away a header curl adds; moya-cli adds none of them")
            return
        }
        // Trailing blanks are not sent.
        if case .text(let last) = headerValue.pieces.last {
            let trimmed = String(last.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            headerValue.pieces[headerValue.pieces.count - 1] = .text(trimmed)
        }
        headers.append(Header(name: name, value: headerValue))
    }

    mutating func data(_ value: Word, written: String) {
        if value.text.hasPrefix("@") {
            note(
                value, written,
                "it reads a file (\(value.text)), which an import never does; put the body in the target's task")
            return
        }
        appendData(value)
    }

    mutating func appendData(_ value: Word) {
        if case .data(var parts) = body {
            parts.append(value)
            body = .data(parts)
        } else {
            if case .form = body {
                leftOut.append(
                    Left(line: value.line, option: "-d", reason: "-d and -F cannot be mixed; the form is kept"));
                return
            }
            body = .data([value])
        }
    }

    /// `--data-urlencode`: `content`, `=content`, `name=content`, `@file`, `name@file`.
    mutating func urlencoded(_ value: Word, written: String) {
        let text = value.text
        if let at = text.firstIndex(of: "@"), !text[..<at].contains("=") {
            note(
                value, written,
                "it reads a file (\(text)), which an import never does; put the body in the target's task")
            return
        }
        guard value.isLiteral else {
            note(
                value, written,
                "a ${VAR} in --data-urlencode cannot be encoded before it is known; write it in the target's parameters"
            )
            return
        }
        let encoded: String
        if let equals = text.firstIndex(of: "=") {
            let name = text[..<equals]
            let content = Self.formEncoded(String(text[text.index(after: equals)...]))
            encoded = name.isEmpty ? content : name + "=" + content
        } else {
            encoded = Self.formEncoded(text)
        }
        appendData(Word(pieces: [.text(encoded)], line: value.line))
    }

    mutating func form(_ value: Word, written: String, literal: Bool) {
        if case .data = body {
            note(value, written, "-d and -F cannot be mixed; the data is kept")
            return
        }
        let text = value.text
        guard let equals = text.firstIndex(of: "=") else {
            note(value, written, "\(text) is not a form field (name=value)")
            return
        }
        let name = String(text[..<equals])
        var content = value.dropping(name.count + 1)
        var isFile = false
        var mimeType: String?
        if !literal, case .text(let first)? = content.pieces.first, first.hasPrefix("@") || first.hasPrefix("<") {
            if first.hasPrefix("<") {
                note(
                    value, written,
                    "\(name)=<file sends a file's text as a field, which an import never reads; it is sent as a file part"
                )
            }
            isFile = true
            content = content.dropping(1)
        }
        if !literal, case .text(let last)? = content.pieces.last, let semicolon = last.firstIndex(of: ";") {
            // `;type=…`, `;filename=…`, `;headers=…` after the value.
            let options = last[last.index(after: semicolon)...]
            content.pieces[content.pieces.count - 1] = .text(String(last[..<semicolon]))
            for option in options.split(separator: ";") {
                if option.hasPrefix("type=") {
                    mimeType = String(option.dropFirst(5))
                } else {
                    note(value, written, "the part's \(option) is not carried")
                }
            }
        }
        var parts: [FormPart] = []
        if case .form(let existing) = body { parts = existing }
        parts.append(FormPart(name: name, value: content, isFile: isFile, mimeType: mimeType))
        body = .form(parts)
    }

    /// Form encoding as curl's `--data-urlencode` does it: the unreserved characters stay, a
    /// space is `+`, everything else is `%XX` in UTF-8.
    static func formEncoded(_ text: String) -> String {
        PercentEncoding.encode(text) { PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: " ") }
            .replacing(" ", with: "+")
    }

    /// The text without blanks at either end.
    static func trimmed(_ text: Substring) -> String {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
