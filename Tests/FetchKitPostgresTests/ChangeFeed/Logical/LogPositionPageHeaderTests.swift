import Testing

@testable import FetchKitPostgres

/// An insert position right after a page boundary counts the new page's header, which no record ends in.
@Suite("Log positions: page headers")
struct LogPositionPageHeaderTests {
    @Test func aPositionJustPastAPageHeaderIsThePageStart() {
        #expect(LogPosition(value: 3 * 8_192 + 24).lastRecordEnd == LogPosition(value: 3 * 8_192))
        // The first page of a segment has the long header.
        #expect(LogPosition(value: 16 << 20 + 40).lastRecordEnd == LogPosition(value: 16 << 20))
    }

    @Test func aPositionWhereARecordCanEndIsKept() {
        #expect(LogPosition(value: 3 * 8_192 + 100).lastRecordEnd == LogPosition(value: 3 * 8_192 + 100))
        // 40 bytes into a page that does not start a segment: a record can end there.
        #expect(LogPosition(value: 3 * 8_192 + 40).lastRecordEnd == LogPosition(value: 3 * 8_192 + 40))
        #expect(LogPosition(value: 8_192).lastRecordEnd == LogPosition(value: 8_192))
    }
}
