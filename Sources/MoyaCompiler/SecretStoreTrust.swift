import MoyaHTTP
import MoyaSpec

/// Whether a spec's `secrets:` source may be read: the trust rules for stores, in one place.
/// A store is read for a spec from a trusted folder (its programs as they were when trusted)
/// or from the user's own spec folder; the user's `secrets.yaml` and a dotenv file in the
/// spec's folder always; nothing for a folder found in the working directory whose specs may
/// read no set variable. `SecretVault` (MoyaRuntime) asks it before each read.
public struct SecretStoreTrust: Sendable {
    /// Why the working directory's specs may read no value, when they may not
    /// (`SpecCompiler.refusesEnvironment`): then they read no store either.
    let refusesEnvironment: EnvironmentRefusal?
    /// Where the trust list and the user's spec folder are.
    let environment: Environment

    public init(refusesEnvironment: EnvironmentRefusal?, environment: Environment) {
        self.refusesEnvironment = refusesEnvironment
        self.environment = environment
    }

    /// Why `source` may not be read for the spec in `specFile`, or nil when it may.
    @Sendable public func refusal(of source: SecretSource, specFile: String) -> String? {
        if let found = refusesEnvironment, found.covers(specFile), found.reason != nil {
            let shown = found.folder.hasPrefix("/") ? found.folder : "./" + found.folder
            return "\(shown) was found in the working directory and is not trusted as it is now, so its specs "
                + "read no secret store; run 'moya-cli trust \(found.folder)' once you have read them"
        }
        guard source.origin == .spec else { return nil }
        // A dotenv file is read only inside the spec's own folder, which holds nothing of the
        // user's stores.
        if case .dotenv = source.kind { return nil }
        let folder = FileRoot(spec: specFile).directory
        let trust = SpecTrust(environment: environment)
        if trust.standing(of: folder) == .trusted { return trust.refusal(ofProgramsOf: source, in: folder) }
        if let own = SpecLibrary.defaultPaths(environment: environment).dropFirst().first,
            let real = FileRoot.realPath(own), folder == real || folder.hasPrefix(real + "/")
        {
            return nil
        }
        let what =
            if case .command = source.kind { "a spec's command runs" } else { "a spec's \(source.store) entry is read" }
        return "\(what) only from a trusted folder or your own spec folder; run "
            + "'moya-cli trust \(folder)' once you have read its specs, or declare it in your secrets.yaml"
    }
}
