#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few questions about files that spec discovery asks, answered with one `stat` each.
enum FileSystem {
    enum Kind {
        case missing, file, directory, other
    }

    static func kind(_ path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    static func isRegularFile(_ path: String) -> Bool {
        kind(path) == .file
    }
}
