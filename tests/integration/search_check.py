#!/usr/bin/env python3
"""Checks `crawlctl search --json` answers against the pages themselves
(tests/integration/search_test.sh). Pages are fetched from testweb through its
hosts file, their text taken without tags; a query word matches a text word
when the word starts with the word's first five letters (the queue server
stems: "gardens" and "garden" are one term).

  search_check.py HOSTS_FILE page URL          -> prints the page's text words
  search_check.py HOSTS_FILE terms JSON W...   -> every result has every word
  search_check.py HOSTS_FILE phrase JSON W...  -> every result has the words adjacent
  search_check.py HOSTS_FILE site JSON HOST    -> every result is on HOST
Exits 1 with a message on the first violation; also when there is no result.
"""
import html
import http.client
import json
import re
import sys
import urllib.parse


def load_hosts(path):
    hosts = {}
    for line in open(path):
        line = line.split('#', 1)[0].split()
        if len(line) < 2:
            continue
        addr = line[0]
        for name in line[1:]:
            hosts.setdefault(name.lower().rstrip('.'), addr)
    return hosts


def fetch_words(hosts, url):
    u = urllib.parse.urlsplit(url)
    addr = hosts[u.hostname]
    ip, _, port = addr.rpartition(':') if ':' in addr else (addr, '', '80')
    conn = http.client.HTTPConnection(ip, int(port) if u.port is None else u.port, timeout=10)
    path = u.path or '/'
    if u.query:
        path += '?' + u.query
    conn.request('GET', path, headers={'Host': u.netloc})
    body = conn.getresponse().read().decode('utf-8', 'replace')
    text = html.unescape(re.sub(r'<[^>]*>', ' ', body))
    return re.findall(r'\w+', text.lower())


def has_word(words, w):
    stem = w.lower()[:5]
    return any(x.startswith(stem) for x in words)


def has_phrase(words, phrase):
    n = len(phrase)
    for i in range(len(words) - n + 1):
        if all(words[i + j].startswith(phrase[j].lower()[:5]) for j in range(n)):
            return True
    return False


def results(path):
    data = json.load(open(path))
    res = data['results']
    if not res:
        sys.exit(f'FAIL: no results in {path}')
    for r in res:
        for key in ('url', 'title', 'snippet', 'score', 'doc_rank', 'bonus', 'relevance', 'proximity'):
            if key not in r:
                sys.exit(f'FAIL: result without {key}: {r}')
        parts = r['doc_rank'] + r['bonus'] + r['relevance'] + r['proximity']
        if abs(parts - r['score']) > 1e-3 * max(1.0, abs(r['score'])):
            sys.exit(f'FAIL: score {r["score"]} is not the sum of its parts {parts}')
    scores = [r['score'] for r in res]
    if scores != sorted(scores, reverse=True):
        sys.exit(f'FAIL: results not best first: {scores}')
    return res


def main():
    hosts = load_hosts(sys.argv[1])
    mode = sys.argv[2]
    if mode == 'page':
        print(' '.join(fetch_words(hosts, sys.argv[3])))
        return
    res = results(sys.argv[3])
    args = sys.argv[4:]
    for r in res:
        if mode == 'site':
            host = urllib.parse.urlsplit(r['url']).hostname
            if host != args[0] and not host.endswith('.' + args[0]):
                sys.exit(f'FAIL: {r["url"]} is not on {args[0]}')
            continue
        if r.get('link_only'):
            # A link document: its words are in the anchor text (the title).
            words = re.findall(r'\w+', r['title'].lower())
        else:
            words = fetch_words(hosts, r['url'])
        if mode == 'terms':
            for w in args:
                if not has_word(words, w):
                    sys.exit(f'FAIL: {r["url"]} does not contain {w}')
        elif mode == 'phrase':
            if not has_phrase(words, args):
                sys.exit(f'FAIL: {r["url"]} does not contain the phrase {" ".join(args)}')
    print(f'{mode} {" ".join(args)}: {len(res)} results ok')


if __name__ == '__main__':
    main()
