import Testing

@testable import FetchKit

@Test func valueRoundTrip() { #expect(Value.double(-0.0) != Value.double(0.0)) }
