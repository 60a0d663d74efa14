import Platform
import Testing

@Suite struct TimeSourceTests {
    @Test(
        arguments: [
            (1_715_769_000_250_000_123, 1_715_769_000_250, 1_715_769_000),
            (0, 0, 0),
            (-1, -1, -1),
            (-1_500_000_000, -1500, -2),
        ] as [(Int64, Int64, Int)])
    func wallReadingsRoundDown(nanoseconds: Int64, milliseconds: Int64, seconds: Int) {
        let clock = TimeSource.fixed(wallNanoseconds: nanoseconds)
        #expect(clock.wallNanoseconds == nanoseconds)
        #expect(clock.wallMilliseconds == milliseconds)
        #expect(clock.wallSeconds == seconds)
    }

    @Test func readingsComeFromTheGivenFunctions() {
        let clock = TimeSource(monotonicNanoseconds: { 5_000_000_000 }, wallNanoseconds: { 42_000_000_000 })
        #expect(clock.monotonicNanoseconds == 5_000_000_000)
        #expect(clock.elapsed(since: 3_000_000_000) == .seconds(2))
        #expect(clock.elapsed(since: 6_000_000_000) == .zero)
        #expect(clock.wallSeconds == 42)
        #expect(clock != TimeSource.system && clock == clock)
    }

    @Test func theSystemClockReadsTheOperatingSystemsTime() {
        let clock = TimeSource.system
        // 2020-01-01 and 2200-01-01: any machine running these tests is between them.
        #expect((1_577_836_800...7_258_118_400).contains(clock.wallSeconds))
        #expect(abs(clock.wallMilliseconds / 1000 - Int64(clock.wallSeconds)) <= 1)
        let first = clock.monotonicNanoseconds
        #expect(clock.monotonicNanoseconds >= first)
    }
}
