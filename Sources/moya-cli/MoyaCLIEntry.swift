import MoyaCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

@main
struct MoyaCLIEntry {
    @MainActor static func main() async {
        let status = await MoyaCLI.run(Array(CommandLine.arguments.dropFirst()))
        exit(status)
    }
}
