import Testing

@testable import FetchKit

/// The choice between applying a change incrementally and refetching follows what each path measured.
@Suite("Apply cost model")
struct ApplyCostModelTests {
    @Test func aFewKeysAreAppliedAndKeysFarBeyondTheResultsRefetch() {
        let model = ApplyCostModel()
        #expect(!model.prefersRefetch(keys: 1, rows: 10))
        #expect(!model.prefersRefetch(keys: 1_000, rows: 100_000))
        #expect(model.prefersRefetch(keys: 100_000, rows: 10))
    }

    @Test func measuredCostsMoveTheChoice() {
        var model = ApplyCostModel()
        #expect(!model.prefersRefetch(keys: 100, rows: 10))
        // Incremental applications turn out slow (50 µs a key) and refetches cheap: 100 keys now refetch.
        for _ in 0..<200 {
            model.incrementalApplied(keys: 100, duration: .microseconds(5_000))
            model.refetched(rows: 10, duration: .microseconds(60))
            model.refetched(rows: 1_000, duration: .microseconds(600))
        }
        #expect(model.prefersRefetch(keys: 100, rows: 10))
        // And back: incremental applications at 1 µs a key.
        for _ in 0..<400 { model.incrementalApplied(keys: 100, duration: .microseconds(100)) }
        #expect(!model.prefersRefetch(keys: 100, rows: 10))
    }

    @Test func aSmallApplicationTeachesNothingAndIsNeverARefetch() {
        var model = ApplyCostModel()
        let before = model
        // One slow application of a few keys (a busy machine) moves nothing.
        model.incrementalApplied(keys: 3, duration: .seconds(1))
        #expect(model == before)
        for _ in 0..<200 { model.incrementalApplied(keys: 100, duration: .seconds(1)) }
        #expect(!model.prefersRefetch(keys: 99, rows: 1))
        #expect(model.prefersRefetch(keys: 100, rows: 1))
    }
}
