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
        if let number = MoyaCLI.endingSignal(for: status) {
            // Cleanup is done; end by the signal itself, with its default action, so that the
            // shell stops a loop on Ctrl-C. Output is flushed first: the default action does
            // not flush it.
            fflush(nil)
            signal(number, SIG_DFL)
            var unblocked = sigset_t()
            sigemptyset(&unblocked)
            sigaddset(&unblocked, number)
            pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
            raise(number)
        }
        exit(status)
    }
}
