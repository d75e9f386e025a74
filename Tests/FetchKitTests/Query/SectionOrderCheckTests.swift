import FetchKit
import Testing

/// A request whose order could split a section is refused before a controller fetches it, whatever the rows.
@Suite("Requests: orders that can split a section")
struct SectionOrderCheckTests {
    static func request(_ sorts: [FetchSortDescriptor], section: String? = "title") -> AnyFetchRequest {
        AnyFetchRequest(entity: "Todo", sortDescriptors: sorts, sectionNameKeyPath: section)
    }

    @Test func ordersThatKeepSectionsTogetherPass() throws {
        try Self.request([.ascending("title"), .ascending("id")]).checkSectionOrder()
        try Self.request([.descending("title"), .ascending("priority", caseInsensitive: true)]).checkSectionOrder()
        // No sort descriptor on the section key path: the controller sorts by it first.
        try Self.request([.ascending("priority")]).checkSectionOrder()
        try Self.request([.ascending("title", caseInsensitive: true)], section: nil).checkSectionOrder()
    }

    @Test func aCaseInsensitiveSectionSortIsRefused() {
        do {
            try Self.request([.ascending("title", caseInsensitive: true), .ascending("id")]).checkSectionOrder()
            Issue.record("accepted")
        } catch {
            #expect(error.code == .sectionOrder)
            #expect(error.keyPath == "title")
            #expect(error.section == nil)
            #expect(error.offset == nil)
            #expect(error.message.contains("sort by 'title' first, with a case-sensitive comparison"))
            #expect(error.description == error.message)
        }
    }

    @Test func aSortBeforeTheSectionKeyIsRefused() {
        do {
            try Self.request([.ascending("priority"), .ascending("title")]).checkSectionOrder()
            Issue.record("accepted")
        } catch {
            #expect(error.code == .sectionOrder)
            #expect(error.keyPath == "title")
            #expect(error.section == nil)
            #expect(error.message.contains("'priority' is sorted before it"))
            #expect(error.message.contains("sort by 'title' first"))
        }
    }
}
