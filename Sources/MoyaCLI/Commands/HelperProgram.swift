import ArgumentParser
import MoyaCommandSupport
import MoyaHTTP
import MoyaRuntime
import MoyaSpec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program moya-cli hands a command over to: one whose library would slow every other
/// command's start if linked into moya-cli (bench/RESULTS.md). `moya-cli-openapi` does
/// `import openapi` and `export openapi`: OpenAPIKit's metadata, and the full Foundation it
/// needs, made every command start later. It is the executable `moya-cli-tools`, installed
/// beside moya-cli and run under the program's name; moya-cli replaces itself with it once the
/// command line has been read.
struct HelperProgram: Sendable {
    /// The program's name, which the executable is run under.
    let name: String

    /// The executable that holds every program.
    static let executable = "moya-cli-tools"
    /// The environment variable that names its path instead.
    static let variable = "MOYA_CLI_TOOLS"

    static let openAPI = HelperProgram(name: "moya-cli-openapi")

    /// Runs the program in this process's place for `command`; returns only by throwing, or,
    /// run in-process (`CommandContext.helper`), when the program succeeded.
    func run(_ arguments: [String], for command: String) throws {
        let context = CommandContext.current
        if let helper = context.helper {
            // The program has said what failed; the command ends with its status.
            let status = helper([name] + arguments, context.writeOut, context.writeError)
            if status != 0 { throw ExitCode(status) }
            return
        }
        // In a process that does not end with the command (tests, a host program), replacing
        // the process would end the host.
        guard context.exitsWhenDone else {
            throw UsageError("\(command) runs only in the moya-cli executable")
        }
        guard let helper = Self.locate(context.environment) else {
            throw HelperFailure(
                "\(Self.executable), which does \(command), is not beside moya-cli or on PATH; make install installs it"
            )
        }
        throw HelperFailure(ChildProcess.replace(with: helper, [name] + arguments).reason)
    }

    /// `$MOYA_CLI_TOOLS`, else `moya-cli-tools` beside this executable, else on `PATH`.
    static func locate(_ environment: Environment) -> String? {
        let name = executable
        if let path = environment[variable], !path.isEmpty { return path }
        if let executable = runningExecutable(), let slash = executable.lastIndex(of: "/") {
            let beside = executable[..<slash] + "/" + name
            if access(beside, X_OK) == 0 { return String(beside) }
        }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            let candidate = directory + "/" + name
            if access(candidate, X_OK) == 0 { return String(candidate) }
        }
        return nil
    }

    /// The path of the running executable, links followed (`/proc/self/exe`); nil where the
    /// system does not say. What moya-cli finds its installed files from.
    static func runningExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
