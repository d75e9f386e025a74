import Testing

@testable import FetchKit

/// When a controller says it is behind the store, and when it says it caught up.
@Suite("Delivery lag")
struct DeliveryLagTests {
    /// Observes each lag in turn; returns, for each, whether the status changed and what it says.
    func walk(
        _ lags: [Duration], _ start: DeliveryLag = DeliveryLag(threshold: .seconds(1))
    ) -> [(changed: Bool, status: ResultsStatus)] {
        var machine = start
        return lags.map { lag in
            let changed = machine.observe(lag)
            return (changed, machine.status)
        }
    }

    @Test func aLagUnderASecondIsLive() {
        let steps = walk([.milliseconds(900)])
        #expect(!steps[0].changed && steps[0].status == .live)
    }

    @Test func aLagOverASecondIsReportedInStepsOfATenth() {
        let steps = walk([.milliseconds(1_234), .milliseconds(1_299), .milliseconds(2_050)])
        #expect(steps[0].changed && steps[0].status == .catchingUp(lag: .milliseconds(1_200)))
        #expect(!steps[1].changed)
        #expect(steps[2].changed && steps[2].status == .catchingUp(lag: .milliseconds(2_000)))
    }

    @Test func itStaysBehindUntilHalfTheThreshold() {
        let steps = walk([.seconds(3), .milliseconds(800), .milliseconds(500), .milliseconds(999)])
        #expect(steps[1].changed && steps[1].status == .catchingUp(lag: .milliseconds(800)))
        #expect(steps[2].changed && steps[2].status == .live)
        #expect(!steps[3].changed && steps[3].status == .live)
    }

    @Test func theDefaultThresholdIsAQuarterOfASecond() {
        let steps = walk(
            [.milliseconds(250), .milliseconds(260), .milliseconds(210), .milliseconds(125)], DeliveryLag())
        #expect(!steps[0].changed && steps[0].status == .live)
        #expect(steps[1].changed && steps[1].status == .catchingUp(lag: .milliseconds(200)))
        #expect(!steps[2].changed)
        #expect(steps[3].changed && steps[3].status == .live)
    }

    @Test func noPendingChangeIsCaughtUp() {
        let steps = walk([.seconds(30), .zero])
        #expect(steps[1].changed && steps[1].status == .live)
    }
}
