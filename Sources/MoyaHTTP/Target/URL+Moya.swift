#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension URL {
    /// The URL a target's request goes to: its base URL with its path appended.
    ///
    /// An empty path leaves the base URL exactly as it is, query included. Otherwise the path
    /// joins the base URL's path with a single `/`, in front of any query the base URL has.
    /// Characters a path may not hold are percent-encoded, `?` and `#` among them, so a `?`
    /// in a path never starts a query; escapes already in the path are kept as they are.
    public init(target: some TargetType) {
        self = target.baseURL.appendingMoyaPath(target.path)
    }

    /// This URL with `path` appended as `URL(target:)` appends it.
    public func appendingMoyaPath(_ path: String) -> URL {
        guard !path.isEmpty else { return self }
        var base = absoluteString
        var suffix = ""
        if let cut = base.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            suffix = String(base[cut...])
            base = String(base[..<cut])
        }
        let escaped = URL.escapePath(path)
        let joined: String
        switch (base.hasSuffix("/"), escaped.hasPrefix("/")) {
        case (true, true): joined = base + escaped.dropFirst()
        case (false, false): joined = base + "/" + escaped
        default: joined = base + escaped
        }
        return URL(string: joined + suffix) ?? self
    }

    /// Percent-encodes what a URL path may not hold, keeping `%XX` escapes already present.
    static func escapePath(_ path: String) -> String {
        let bytes = Array(path.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, bytes[index + 1].isHexDigit,
                bytes[index + 2].isHexDigit
            {
                output.append(contentsOf: bytes[index...index + 2])
                index += 3
                continue
            }
            if byte.isPathAllowed {
                output.append(byte)
            } else {
                PercentEncoding.append(byte, to: &output)
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }
}

extension UInt8 {
    var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }

    /// RFC 3986 `pchar` and `/`: unreserved, sub-delimiters, `:` and `@`.
    var isPathAllowed: Bool {
        PercentEncoding.isUnreserved(self) || "!$&'()*+,;=:@/".utf8.contains(self)
    }
}
