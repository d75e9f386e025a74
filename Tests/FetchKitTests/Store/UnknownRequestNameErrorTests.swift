import FetchKit
import Testing

/// `unknownRequestName` says which name was asked for and which there are, as fields.
@Suite("Errors: unknown request names")
struct UnknownRequestNameErrorTests {
    @Test func unknownRequestNameCarriesTheNames() {
        let error = FetchKitError.unknownRequestName("nope", known: ["all", "open"])
        #expect(error.code == .unknownRequestName)
        #expect(error.requestName == "nope")
        #expect(error.knownRequestNames == ["all", "open"])
        #expect(error.description == "no fetch request named 'nope' (known: all, open)")
        #expect(error != FetchKitError.unknownRequestName("nope", known: ["all"]))
    }
}
