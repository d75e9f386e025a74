import CLibPQ
import FetchKit
import Testing

/// libpq itself says which of its connection keywords are secrets (a `dispchar` of `*`, "hide the value"):
/// every one of them, in the libpq this build links, is one the redaction model hides — a keyword a newer
/// libpq adds fails this test until the model knows it.
@Suite("libpq's secret keywords")
struct LibpqSecretKeywordTests {
    /// The keywords libpq marks secret, from `PQconndefaults()`.
    static func secretKeywords() -> [String] {
        guard let options = PQconndefaults() else { return [] }
        defer { PQconninfoFree(options) }
        var keywords: [String] = []
        var option = options
        while let keyword = option.pointee.keyword {
            if let dispchar = option.pointee.dispchar, String(cString: dispchar).contains("*") {
                keywords.append(String(cString: keyword))
            }
            option += 1
        }
        return keywords
    }

    @Test func everyKeywordLibpqHidesIsHidden() {
        let keywords = Self.secretKeywords()
        #expect(keywords.contains("password"), "libpq marks no password secret: \(keywords)")
        for keyword in keywords {
            #expect(SecretRedaction.isSecret(keyword: keyword), "libpq hides '\(keyword)'; FetchKit does not")
            for spelling in [keyword, keyword.uppercased()] {
                let shown = SecretRedaction.redact("host=db \(spelling) = 'Sh0wn-Never' \(spelling)=Sh0wn-Never")
                #expect(!shown.contains("Sh0wn-Never"), "\(shown)")
                let url = SecretRedaction.redact("postgresql://db/app?\(spelling)=Sh0wn-Never&\(spelling)=Sh0wn-Never")
                #expect(!url.contains("Sh0wn-Never"), "\(url)")
            }
        }
    }
}
