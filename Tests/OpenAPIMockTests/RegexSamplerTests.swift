import APISchema
import HTTPCore
import LinearRegex
import Testing

@testable import OpenAPIMock

/// Texts sampled from a pattern are whole matches of it, of a length asked for; a length
/// the pattern has no match of gives nil.
@Suite struct RegexSamplerTests {
    @Test(arguments: [
        ("^[A-Z]{2}-[0-9]{3}$", 0...100), ("[a-z]+", 20...25), ("(red|green|blue)(-[0-9]{1,2})?", 0...6),
        ("\\w+@\\w+\\.com", 0...40), ("(?i)^(yes|no)$", 0...3), ("[^\\s]{3,}", 10...10), ("\\p{L}{4}", 0...10),
        ("a|bb|ccc", 3...3), ("(ab)*", 7...9), ("\\bword\\b", 0...10), ("[\\x{4e00}-\\x{4e0f}]+", 2...2),
    ])
    func samplesMatchWhole(pattern: String, length: ClosedRange<Int>) throws {
        let sampler = try RegexSampler(pattern)
        let regex = try LinearTimeRegex(pattern)
        var random = SplitMix64(seed: pattern)
        for _ in 0..<20 {
            let text = try #require(sampler.sample(length: length, using: &random), "\(pattern) \(length)")
            #expect(regex.wholeMatches(text), "\(pattern): \(text)")
            #expect(length.contains(text.unicodeScalars.count), "\(pattern): \(text)")
        }
    }

    @Test(arguments: [("^[0-9]{5}$", 0...3), ("abc", 4...10), ("x{3}y{3}", 0...5)])
    func noMatchOfTheLengthIsNil(pattern: String, length: ClosedRange<Int>) throws {
        var random = SplitMix64(seed: pattern)
        #expect(try RegexSampler(pattern).sample(length: length, using: &random) == nil)
    }

    @Test func theLengthsAreThePatterns() throws {
        let sampler = try RegexSampler("a{2,5}(b|cc)?")
        #expect(sampler.minimumLength == 2)
        #expect(sampler.maximumLength == 7)
        #expect(try RegexSampler("a+").maximumLength == nil)
    }
}
