# Answers robots.txt queries with the webrobots gem. Input and output as in
# drivers.js.
require 'json'
require 'webrobots'

data = JSON.parse(File.read(ARGV[0], encoding: 'utf-8'))
verdicts = data['queries'].map do |q|
  body = data['files'][q['file']]
  robots = WebRobots.new(q['agent'], http_get: ->(_uri) { body })
  robots.allowed?(q['url'])
rescue StandardError => e
  warn "webrobots: #{e.message}"
  nil
end
print JSON.generate({ 'webrobots' => verdicts })
