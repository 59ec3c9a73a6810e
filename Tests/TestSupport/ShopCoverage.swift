/// The coverage of `Tests/Fixtures/coverage/shop.yaml`'s live check run against `TestServer`,
/// counted by hand: what `check --coverage` writes (MoyaCLITests) and what a recorder given the
/// same exchanges counts (MoyaCoverageTests).
public enum ShopCoverage {
    /// What the live run against the test server covers, counted by hand:
    /// - listPets: called twice, 200 came back, 400 never; `kind` was cat, then dog, never
    ///   bird; `limit` was sent once.
    /// - answer: 200, 418 and 503 came back; 418 and 503 fall under its `error` sample's
    ///   `default` response (OpenAPI's matching), so only 404 is left.
    /// - addPet: the echo answers 200, which it does not declare (201 and 409 it does): a gap
    ///   in the description. Its body is the Cat branch, `kind` cat.
    /// - deletePet needs an id, so its only check is skipped: nothing of it is covered.
    /// Statuses: 1 of 2, 2 of 3, 0 of 2, 0 of 1: 3 of 8, 37.5%.
    public static let live = """
        {"version":1,"percent":37.5,"targets":{"covered":3,"total":4},"statuses":{"covered":3,"total":8},
        "params":{"covered":3,"total":4},"enumValues":{"covered":3,"total":5},"bodyBranches":{"covered":1,"total":2},
        "unmatched":0,
        "services":[{"name":"shop","percent":37.5,"targets":{"covered":3,"total":4},"statuses":{"covered":3,"total":8},
          "params":{"covered":3,"total":4},"enumValues":{"covered":3,"total":5},"bodyBranches":{"covered":1,"total":2}}],
        "items":[
        {"service":"shop","target":"listPets","method":"GET","path":"/echo","group":"/echo","called":true,"calls":2,
         "statuses":[{"status":"200","covered":true,"seen":2},{"status":"400","covered":false,"seen":0}],
         "undeclaredStatuses":[],
         "params":[{"name":"limit","covered":true},{"name":"kind","covered":true}],
         "enumValues":[{"in":"param","name":"kind","value":"cat","covered":true},
           {"in":"param","name":"kind","value":"dog","covered":true},
           {"in":"param","name":"kind","value":"bird","covered":false}],
         "bodyBranches":[]},
        {"service":"shop","target":"answer","method":"GET","path":"/status/{code}","group":"/status","called":true,
         "calls":3,
         "statuses":[{"status":"200","covered":true,"seen":1},{"status":"404","covered":false,"seen":0},
           {"status":"default","covered":true,"seen":2}],
         "undeclaredStatuses":[],"params":[{"name":"code","covered":true}],"enumValues":[],"bodyBranches":[]},
        {"service":"shop","target":"addPet","method":"POST","path":"/echo","group":"/echo","called":true,"calls":1,
         "statuses":[{"status":"201","covered":false,"seen":0},{"status":"409","covered":false,"seen":0}],
         "undeclaredStatuses":[{"status":200,"seen":1}],"params":[],
         "enumValues":[{"in":"body","name":"kind","value":"cat","covered":true},
           {"in":"body","name":"kind","value":"dog","covered":false}],
         "bodyBranches":[{"branch":"Cat","covered":true},{"branch":"Dog","covered":false}]},
        {"service":"shop","target":"deletePet","method":"DELETE","path":"/pets/{id}","group":"/pets","called":false,
         "calls":0,"statuses":[{"status":"204","covered":false,"seen":0}],"undeclaredStatuses":[],
         "params":[{"name":"id","covered":false}],"enumValues":[],"bodyBranches":[]}
        ]}
        """
}
