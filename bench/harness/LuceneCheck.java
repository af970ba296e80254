import java.nio.file.Paths;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.store.FSDirectory;

// Output check for luindex: what the index holds (documents, distinct terms, term occurrences of "contents").
public class LuceneCheck {
    public static void main(String[] args) throws Exception {
        try (IndexReader r = DirectoryReader.open(FSDirectory.open(Paths.get(args[0])))) {
            Terms t = MultiTerms.getTerms(r, "contents");
            long terms = 0;
            if (t != null) {
                TermsEnum e = t.iterator();
                while (e.next() != null) terms++;
            }
            System.out.println("docs=" + r.numDocs() + " terms=" + terms
                + " occurrences=" + (t == null ? 0 : t.getSumTotalTermFreq()));
        }
    }
}
